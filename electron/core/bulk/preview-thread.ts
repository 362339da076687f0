// The body of the import-preview worker (preview-off-thread.ts): parses the file it is given and
// posts the preview back. Runs in a worker thread, so the process that asked keeps answering.
import { parentPort, workerData } from 'node:worker_threads';
import { previewImport, type ImportOptions } from '../../shared/bulk/import';
import { previewImportFile } from './import-file';

const { source, options } = workerData as { source: Uint8Array | { path: string }; options: ImportOptions };
Promise.resolve()
  .then(() => (source instanceof Uint8Array ? previewImport(source, options) : previewImportFile(source.path, options)))
  .then(
    (preview) => {
    // As JSON bytes, transferred: decoding a structured clone of 150,000 rows costs the receiving
    // thread over a second, JSON.parse a fraction of it.
      const json = Buffer.from(JSON.stringify(preview), 'utf8');
      const transfer = json.buffer.slice(json.byteOffset, json.byteOffset + json.byteLength);
      parentPort!.postMessage({ ok: true, json: transfer }, [transfer]);
    },
    (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
