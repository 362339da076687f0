// The body of the import-preview worker (preview-off-thread.ts): previews the file it is given into
// the preview store at the path it is given (import-file.ts), then says it is done. Runs in a worker
// thread, so the process that asked keeps answering.
import { parentPort, workerData } from 'node:worker_threads';
import type { ImportOptions } from '../../shared/bulk/import';
import { previewToStore, type PreviewSource } from './import-file';

const { source, options, storePath } = workerData as { source: PreviewSource; options: ImportOptions; storePath: string };
previewToStore(source, options, storePath).then(
  () => parentPort!.postMessage({ ok: true }),
  (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);
