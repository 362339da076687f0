// Where the files handed over for bulk work wait between "open" and the run: one temporary file each
// in `uploads/` of the data folder (0700, files 0600), never in memory, so four 64 MB files cost the
// process nothing until a preview reads one (in its worker). A file is removed when it is dropped
// (newer files pushed it out, the host closed); files left by a run that died are removed at the next
// start. A file's name starts with its process's ID, so a second process sharing the folder never
// removes the files of one that is still running.
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BODY_TOO_LARGE, writeBodyToFile } from '../../node/body-file';
import { processRunning } from '../../node/process-alive';

const SUFFIX = '.upload';

export class HeldFiles {
  readonly folder: string;

  constructor(dataDir: string) {
    this.folder = join(dataDir, 'uploads');
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // Made by an older version, or by hand: the files in it are the user's data.
    chmodSync(this.folder, 0o700);
    this.removeLeftovers();
  }

  /** A fresh path in the folder; nothing is there yet. */
  private nextPath(): string {
    return join(this.folder, `${process.pid}-${randomUUID()}${SUFFIX}`);
  }

  /**
   * A fresh path for a scratch file of this process (a preview's store): removed like a held file at
   * the next start once this process has gone.
   */
  scratchPath(kind: string): string {
    return join(this.folder, `${process.pid}-${randomUUID()}-${kind}${SUFFIX}`);
  }

  /** Writes bytes already in memory (an IPC call, a test) to a held file; answers its path. */
  async writeBytes(bytes: Uint8Array): Promise<string> {
    const path = this.nextPath();
    await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
    return path;
  }

  /** Streams a body to a held file; its path and size, or BODY_TOO_LARGE (nothing kept) past `limit` bytes. */
  async receive(body: Readable, limit: number): Promise<{ path: string; size: number } | typeof BODY_TOO_LARGE> {
    const path = this.nextPath();
    const size = await writeBodyToFile(body, path, limit);
    return size === BODY_TOO_LARGE ? size : { path, size };
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true }).catch(() => undefined);
  }

  /** Synchronous, for a host that is closing: nothing may wait on it. */
  removeNow(path: string): void {
    try {
      rmSync(path, { force: true });
    } catch {
      // Left for the next start.
    }
  }

  private removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? Number.NaN);
      // Another process's file stays while that process runs.
      if (name.endsWith(SUFFIX) && pid !== process.pid && Number.isInteger(pid) && processRunning(pid)) continue;
      this.removeNow(join(this.folder, name));
    }
  }
}
