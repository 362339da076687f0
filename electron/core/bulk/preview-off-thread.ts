// An import preview computed in a worker thread: a large file (a 25 MB KML of 150,000 placemarks
// takes seconds) must not stop the process that asked — the browser host's API (status, cancel)
// keeps answering and the CLI stops at once on Ctrl-C or SIGTERM. Where no worker can be started
// from source (a bundle without the worker's file), the preview runs in this thread, as before.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { previewImport, type ImportOptions } from '../../shared/bulk/import';
import type { ImportPreview } from '../../shared/bulk/preview';

const THREAD = new URL('./preview-thread.ts', import.meta.url);

/** The worker registers the TypeScript loader the CLI and the browser host run under, then loads the thread's module. */
const BOOT = `
const { register } = await import('tsx/esm/api');
register();
await import(${JSON.stringify(THREAD.href)});
`;

export async function previewImportOffThread(bytes: Uint8Array, options: ImportOptions): Promise<ImportPreview> {
  if (THREAD.protocol !== 'file:' || !existsSync(fileURLToPath(THREAD))) return previewImport(bytes, options);
  return new Promise<ImportPreview>((resolve, reject) => {
    const worker = new Worker(BOOT, { eval: true, type: 'module', workerData: { bytes, options } } as ConstructorParameters<typeof Worker>[1]);
    worker.once('message', (message: { ok: true; json: ArrayBuffer } | { ok: false; message: string }) => {
      void worker.terminate();
      if (message.ok) resolve(JSON.parse(Buffer.from(message.json).toString('utf8')) as ImportPreview);
      else reject(new Error(message.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the import preview stopped (exit ${code})`));
    });
  });
}
