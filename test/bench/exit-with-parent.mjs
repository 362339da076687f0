// Loaded into the app or sandbox a benchmark starts (`node --import`), never into the app itself. The bench
// holds this process's stdin open; however the bench ends — Ctrl-C, SIGTERM, or SIGKILL, which runs
// no handler of its own — the pipe closes with it, and the process then stops as on SIGTERM (the app's
// outbox flushed, the data folder closed) instead of staying behind with nobody to stop it.
// `--import` runs in every worker thread too, where stdin is an empty stream that ends at once: only
// the main thread watches it (a worker would otherwise stop the process as soon as it starts).
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'));
  process.stdin.on('error', () => process.kill(process.pid, 'SIGTERM'));
  process.stdin.resume();
}
