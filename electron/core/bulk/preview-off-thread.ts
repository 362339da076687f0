// An import preview computed in a worker thread: a large file (a 25 MB KML of 150,000 placemarks
// takes seconds) must not stop the process that asked — the browser host's API (status, cancel)
// keeps answering and the CLI stops at once on Ctrl-C or SIGTERM. The worker is the bundled
// preview-thread.cjs beside the Electron main bundle, or the TypeScript source where the app runs
// from source (the browser host, the CLI); with neither, the preview runs in this thread. A file held
// on disk is read by the worker itself, so its bytes never pass through the asking thread, and the
// preview's rows are written by the worker to a store on disk (preview-store.ts) that this thread
// then reads a page or a batch at a time.
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { prebuilt } from '../../node/prebuilt';
import type { ImportOptions } from '../../shared/bulk/import';
import { previewToStore, type PreviewSource } from './import-file';
import { StoredPreview } from './preview-store';

export type { PreviewSource } from './import-file';

/** Beside dist/electron/main.cjs (electron/main/build.ts), where import.meta.url points in the bundle. */
const BUNDLED = new URL('./preview-thread.cjs', import.meta.url);
/** The thread's TypeScript behind the loader the CLI and the browser host run under. */
const SOURCE = new URL('./preview-thread-source.mjs', import.meta.url);

const present = (url: URL): boolean => url.protocol === 'file:' && existsSync(fileURLToPath(url));

/**
 * The bundled worker as a file a thread can start: packaged, it sits in app.asar.unpacked
 * (electron-builder.yml). Running from source, one built elsewhere if given (../../node/prebuilt.ts):
 * through tsx each preview's thread cost twice the CPU of the bundle's start.
 */
function bundledWorker(): string | null {
  const given = prebuilt('preview-thread');
  if (given) return given;
  if (BUNDLED.protocol !== 'file:') return null;
  const path = fileURLToPath(BUNDLED);
  const unpacked = path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  if (unpacked !== path && existsSync(unpacked)) return unpacked;
  return existsSync(path) ? path : null;
}

/**
 * The process's options as the worker's, but for --input-type: it only fits code given as a string,
 * and a worker started from a file with it inherited refuses to start (a script run with
 * `node --input-type=module -e …` that previews a file).
 */
const workerExecArgv = () => process.execArgv.filter((arg, k, all) => !arg.startsWith('--input-type') && all[k - 1] !== '--input-type');

function startWorker(workerData: { source: PreviewSource; options: ImportOptions; storePath: string }): Worker | null {
  const bundled = bundledWorker();
  if (bundled) return new Worker(bundled, { workerData, execArgv: workerExecArgv() });
  if (present(SOURCE)) return new Worker(SOURCE, { workerData, execArgv: workerExecArgv() });
  return null;
}

/**
 * The preview of `source`, its rows in a store at `storePath` (a scratch file the caller removes
 * with drop(); also removed here when the preview fails). Aborted by `signal`, the worker is ended
 * first — awaited, so nothing runs in it when the caller exits the process — then the scratch file is
 * removed and the promise rejects with the signal's reason.
 */
export async function previewImportStored(source: PreviewSource, options: ImportOptions, storePath: string, signal?: AbortSignal): Promise<StoredPreview> {
  try {
    signal?.throwIfAborted();
    const worker = startWorker({ source, options, storePath });
    if (!worker) await previewToStore(source, options, storePath);
    else await workerDone(worker, signal);
    signal?.throwIfAborted();
    return new StoredPreview(storePath);
  } catch (error) {
    rmSync(storePath, { force: true });
    throw error;
  }
}

function workerDone(worker: Worker, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const abort = () => void worker.terminate().then(() => reject(signal!.reason), () => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);
    worker.once('message', (message: { ok: true } | { ok: false; message: string }) => {
      settle();
      void worker.terminate();
      if (message.ok) resolve();
      else reject(new Error(message.message));
    });
    worker.once('error', (error) => {
      settle();
      reject(error);
    });
    worker.once('exit', (code) => {
      settle();
      if (code !== 0) reject(signal?.aborted ? signal.reason : new Error(`the import preview stopped (exit ${code})`));
    });
  });
}
