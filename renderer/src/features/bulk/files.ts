// Files out of the page: a file made by the host saved through the browser's (or Electron's) own
// download, where the user picks the place. (A chosen file goes to the host through the api bridge.)
import type { ExportedFile } from '../../../../electron/shared/contract/index';

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
