// Node-only file I/O for bulk work (the CLI and the main process): read an import file whole, write
// an export or a report atomically. Kept apart from the parsing modules so those stay browser-safe.
// Every failure is a sentence naming the path and what to do; nothing here throws for a user's mistake.
import { open, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../../node/atomic-file';
import { basename } from 'node:path';

/** Larger files are refused: a site list of a million rows is still far below this. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

export type ReadFileResult = { ok: true; bytes: Uint8Array; fileName: string } | { ok: false; message: string };

/**
 * Whether `path` is a file an import may read (there, not a folder, within the size limit, readable),
 * without reading it: the import's worker reads it from there (import-file.ts).
 */
export async function checkInputFile(path: string): Promise<{ ok: true; fileName: string } | { ok: false; message: string }> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { ok: false, message: `${path} is a folder, not a file.` };
    if (info.size > MAX_IMPORT_BYTES) {
      return { ok: false, message: `${path} is ${Math.round(info.size / 1024 / 1024)} MB; the limit is ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split the file.` };
    }
    await (await open(path, 'r')).close();
    return { ok: true, fileName: basename(path) };
  } catch (error) {
    return { ok: false, message: fileErrorSentence(path, error, 'read') };
  }
}

export async function readInputFile(path: string): Promise<ReadFileResult> {
  const checked = await checkInputFile(path);
  if (!checked.ok) return checked;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = await handle.readFile();
      return { ok: true, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), fileName: basename(path) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, message: fileErrorSentence(path, error, 'read') };
  }
}

/**
 * Writes the whole text to `path` through a temporary file in the same folder and a rename, so a
 * reader never sees half a file and a crash leaves the old file intact.
 */
export async function writeTextFile(path: string, text: string | AsyncIterable<string>): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    // The user's own file, not Sitewalk's data: it takes the usual permissions.
    await writeFileAtomic(path, text, { mode: 0o644 });
    return { ok: true };
  } catch (error) {
    return { ok: false, message: fileErrorSentence(path, error, 'write') };
  }
}

function fileErrorSentence(path: string, error: unknown, verb: 'read' | 'write'): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return verb === 'read' ? `There is no file at ${path}.` : `The folder for ${path} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `Sitewalk is not allowed to ${verb} ${path}; check the file's permissions.`;
    case 'EISDIR':
      return `${path} is a folder, not a file.`;
    case 'ENOSPC':
      return `The disk is full; ${path} was not written.`;
    default:
      return `Cannot ${verb} ${path} (${error instanceof Error ? error.message : String(error)}).`;
  }
}
