// How many test files run at once, per group of `npm test` (vitest.config.ts). Vitest 4 runs the
// projects of one `sequence.groupOrder` side by side only when they share one `maxWorkers`, so the
// number lives here, where both config files read it.
//
// - `fast` (unit, components): most unit files wait on sockets, child processes and the disk rather
//   than the CPU, so one file more than there are cores keeps the cores busy. Measured on 2 busy
//   cores, 20 files of test/cli, host, gps, basemaps: 1 worker 89 s, 3 workers 48 s, 4 workers 53 s.
//   SITEWALK_TEST_WORKERS sets another number.
// - `slow` (heavy, e2e): an end-to-end file waits on its page, the app and the sandbox and keeps
//   about 0.4 of a core busy (layout: 15 s of CPU, Chromium included, in 31 s); a heavy file keeps
//   one core or more busy (many-processes: 104 s of CPU in 56 s). Two files more than there are
//   cores keep both kinds going. SITEWALK_E2E_WORKERS sets another number.
import { availableParallelism } from 'node:os';

const cores = availableParallelism();

export const FAST_WORKERS = Number(process.env.SITEWALK_TEST_WORKERS) || cores + 1;
export const SLOW_WORKERS = Number(process.env.SITEWALK_E2E_WORKERS) || cores + 2;
