// The process MBTiles files are read in (mbtiles-pool.ts starts one for all of a host's files):
// better-sqlite3 cannot stop a query once it runs, and a worker thread cannot be stopped inside one
// either, so a file whose `tiles` is a view that never ends (a recursive CTE) would hold whatever ran
// it. Here, a read past its deadline costs only this process, which the host kills. Calls name their
// file; a file not open yet is opened read-only on first use, and beyond MAX_OPEN_MBTILES the least
// recently read one is closed. It runs under Node's fork (process.send) or as an Electron utility
// process (process.parentPort), and says `ready` once loaded.
import { TileFileLimitError } from './limits';
import { openMbtilesReader, type MbtilesReader } from './mbtiles-reader';
import { MAX_OPEN_MBTILES, type MbtilesAnswer, type MbtilesCall, type ReaderMessage } from './mbtiles-process';

/** Electron's process.parentPort, the part used here (declared here: the core has no Electron types). */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/** Open files, least recently read first. */
const open = new Map<number, MbtilesReader>();

function readerFor(call: MbtilesCall): MbtilesReader {
  const known = open.get(call.fileId);
  if (known) {
    open.delete(call.fileId);
    open.set(call.fileId, known);
    return known;
  }
  const reader = openMbtilesReader(call.path, call.shown);
  open.set(call.fileId, reader);
  for (const [fileId, oldest] of open) {
    if (open.size <= MAX_OPEN_MBTILES) break;
    open.delete(fileId);
    oldest.close();
  }
  return reader;
}

function run(call: MbtilesCall): unknown {
  if (call.op === 'close') {
    open.get(call.fileId)?.close();
    open.delete(call.fileId);
    return null;
  }
  const reader = readerFor(call);
  if (call.op === 'open') return { tables: [...reader.tables], metadata: [...reader.metadata] };
  if (call.op === 'anyTile') return reader.anyTile();
  if (call.op === 'zoomRange') return reader.zoomRange();
  return reader.tile({ z: call.z, x: call.x, y: call.y });
}

function answer(call: MbtilesCall): MbtilesAnswer {
  try {
    return { id: call.id, ok: true, value: run(call) };
  } catch (error) {
    const failed: MbtilesAnswer = { id: call.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    if (error instanceof TileFileLimitError) failed.limit = { sentence: error.sentence, kind: error.kind };
    return failed;
  }
}

const parentPort = (process as { parentPort?: ParentPort }).parentPort;
if (parentPort) {
  const post = (message: ReaderMessage) => parentPort.postMessage(message);
  parentPort.on('message', (event) => post(answer(event.data as MbtilesCall)));
  post({ ready: true });
} else if (process.send) {
  const post = (message: ReaderMessage) => void process.send!(message);
  process.on('message', (call: MbtilesCall) => post(answer(call)));
  // The host went away: nothing is left to answer.
  process.on('disconnect', () => process.exit(0));
  post({ ready: true });
} else {
  process.stderr.write('The MBTiles reader runs as a child of Sitewalk, not on its own.\n');
  process.exitCode = 1;
}
