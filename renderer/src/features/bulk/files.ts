// Files in and out of the page: a chosen file read as base64 for the host (FileReader works off the
// main thread, so a large spreadsheet does not freeze the UI while it is read), and a file made by
// the host saved through the browser's (or Electron's) own download, where the user picks the place.
import type { ExportedFile } from '../../../../electron/shared/contract/index';

/** The file's bytes as base64, without the data: URL prefix. */
export function readFileAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.onload = () => {
      const url = String(reader.result ?? '');
      const comma = url.indexOf(',');
      resolve(comma >= 0 ? url.slice(comma + 1) : '');
    };
    reader.readAsDataURL(file);
  });
}

/** Offers the file for download under its name. */
export function saveFile(file: Pick<ExportedFile, 'fileName' | 'mimeType' | 'content'>): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "1.2 MB", "830 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}
