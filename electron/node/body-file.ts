// Writes a request body (any readable byte stream) to a file as it arrives, up to a limit, so a large
// upload never sits in memory: at most one chunk and the file stream's buffer are held at a time,
// and reading waits while the disk is behind. Past the limit reading stops at once (the stream is
// paused, not drained: the caller answers 413 and closes the connection) and the partial file is
// removed, as it is on any failure.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export const BODY_TOO_LARGE = 'too-large';

/** The number of bytes written, or BODY_TOO_LARGE; rejects (file removed) when the body or the disk fails. */
export function writeBodyToFile(body: Readable, path: string, limit: number): Promise<number | typeof BODY_TOO_LARGE> {
  return new Promise((resolve, reject) => {
    // 'wx': never write through a file (or link) that is already there. 0600: the user's data.
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    let size = 0;
    let settled = false;
    const detach = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', fail);
      body.off('close', onClose);
      out.off('drain', onDrain);
    };
    const discard = (): Promise<void> =>
      new Promise<void>((done) => {
        out.destroy();
        out.once('close', () => done());
      }).then(() => rm(path, { force: true }));
    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      detach();
      void discard().then(() => reject(error), () => reject(error));
    }
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > limit) {
        settled = true;
        detach();
        body.pause();
        void discard().then(() => resolve(BODY_TOO_LARGE), reject);
        return;
      }
      if (!out.write(chunk)) body.pause();
    }
    function onDrain(): void {
      body.resume();
    }
    function onEnd(): void {
      if (settled) return;
      settled = true;
      detach();
      out.end(() => resolve(size));
    }
    // A sender that goes away mid-body: no 'end' will come.
    function onClose(): void {
      fail(new Error('The connection closed before the file had arrived whole.'));
    }
    out.on('error', fail);
    out.on('drain', onDrain);
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', fail);
    body.on('close', onClose);
  });
}
