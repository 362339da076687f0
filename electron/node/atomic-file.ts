// The one way Sitewalk replaces a whole file (profiles, secrets, caches, the sandbox's state, the
// tile index, exported files): write a temporary file beside it, fsync it, rename it over the old
// one, then fsync the folder so the rename itself survives a power cut. A reader sees the old file
// or the new one, never half of one; a failure leaves the old file and no temporary behind.
// npm's write-file-atomic was the candidate library: it fsyncs the file but not the folder, and has
// no way to refuse an existing temporary, so this stays ours (and small).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permissions of the new file (default 0600: Sitewalk's files are the user's alone). */
  mode?: number;
  /**
   * fsync the file and the folder (default true). A cache that can be fetched again (map tiles)
   * passes false: still never half a file, but a power cut may lose the newest ones.
   */
  durable?: boolean;
}

function temporaryFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Replaces `path` with `data`, durably (see the header). */
export async function writeFileAtomic(path: string, data: string | Uint8Array | AsyncIterable<string>, options: AtomicWriteOptions = {}): Promise<void> {
  const temporary = temporaryFor(path);
  try {
    const handle = await open(temporary, 'wx', options.mode ?? 0o600);
    try {
      // Pieces (a report of a million rows) are written as they come, never joined in memory.
      if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
      else for await (const piece of data) await handle.write(piece);
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  if (options.durable !== false) await syncFolder(dirname(path));
}

/** The same, synchronously (for code that must finish before the event loop turns, like the sandbox's state). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const temporary = temporaryFor(path);
  try {
    const fd = openSync(temporary, 'wx', options.mode ?? 0o600);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      if (options.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  if (options.durable !== false) syncFolderSync(dirname(path));
}

/** Makes a rename or a new file in `folder` durable. Windows cannot open a folder for this: skipped there. */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function syncFolderSync(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
