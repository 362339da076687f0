// The process an MBTiles file is read in (mbtiles-remote.ts starts it): better-sqlite3 cannot stop a
// query once it runs, and a worker thread cannot be stopped inside one either, so a file whose
// `tiles` is a view that never ends (a recursive CTE) would hold whatever ran it. Here, a read past
// its deadline costs only this process, which the host kills. One file per process; the messages
// are the reader's calls (mbtiles-reader.ts) and their answers, tiles as bytes.
import { openMbtilesReader, type MbtilesReader } from './mbtiles-reader';
import { TileFileLimitError } from './limits';

export type MbtilesRequest = { op: 'open'; path: string; shown: string } | { op: 'anyTile' } | { op: 'zoomRange' } | { op: 'tile'; z: number; x: number; y: number };
export type MbtilesCall = MbtilesRequest & { id: number };

export type MbtilesAnswer = { id: number } & ({ ok: true; value: unknown } | { ok: false; message: string; limit?: { sentence: string; kind: 'limit' | 'damage' } });

let reader: MbtilesReader | null = null;

function run(call: MbtilesCall): unknown {
  if (call.op === 'open') {
    reader = openMbtilesReader(call.path, call.shown);
    return { tables: [...reader.tables], metadata: [...reader.metadata] };
  }
  if (!reader) throw new Error('the MBTiles file is not open');
  if (call.op === 'anyTile') return reader.anyTile();
  if (call.op === 'zoomRange') return reader.zoomRange();
  return reader.tile({ z: call.z, x: call.x, y: call.y });
}

process.on('message', (call: MbtilesCall) => {
  let answer: MbtilesAnswer;
  try {
    answer = { id: call.id, ok: true, value: run(call) };
  } catch (error) {
    answer = { id: call.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    if (error instanceof TileFileLimitError) answer.limit = { sentence: error.sentence, kind: error.kind };
  }
  process.send!(answer);
});
// The host went away: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
