// The body of the import-preview worker (preview-off-thread.ts): parses the file it is given and
// posts the preview back. Runs in a worker thread, so the process that asked keeps answering.
import { parentPort, workerData } from 'node:worker_threads';
import { previewImport, type ImportOptions } from '../../shared/bulk/import';
import { previewImportFile } from './import-file';
import { packPreview, transferList } from './kept-preview';

const { source, options } = workerData as { source: Uint8Array | { path: string }; options: ImportOptions };
Promise.resolve()
  .then(() => (source instanceof Uint8Array ? previewImport(source, options) : previewImportFile(source.path, options)))
  .then(
    (preview) => {
      // Packed and transferred: the asking thread decodes only the rows it is asked for (kept-preview.ts).
      const packed = packPreview(preview);
      parentPort!.postMessage({ ok: true, packed }, transferList(packed));
    },
    (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
