// Every test, in four projects and two groups run one after the other. First the fast ones: `unit`
// (the inner loop) beside `components` (the renderer's components rendered in Chromium, fed by the
// real store and a fake host: test/components). Then the slow ones: `heavy` (the runs that take a
// machine's attention: tens of thousands of rows, SIGKILLs, gigabyte files, packaging) beside `e2e`
// (vitest.e2e.config.ts: Chromium drives the app). A group ends when its last file does; run one
// after the other, heavy and e2e each left a core idle at their tail, and the end-to-end files, which
// mostly wait on their pages, left one idle throughout. Vitest 4 runs the projects of a group side by
// side only when they share one `maxWorkers` (test/support/workers.ts).
// The unit, heavy and e2e files share a process per worker (isolate: false), so the app's modules
// are imported once a worker rather than once a file; a unit or heavy file that overrides a fixture
// at its top level runs in `unit-isolated` or `heavy-isolated`, in a process of its own
// (test/support/isolation.ts says why).
// `npx vitest run test/x.test.ts` runs one file in whichever project holds it;
// `--project 'unit*'` runs only the inner loop.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import react from '@vitejs/plugin-react';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium';
import { filesOverridingAtTopLevel } from './test/support/isolation';
import SlowFirstSequencer from './test/support/slow-first-sequencer';
import { testTmpdirEnv } from './test/support/test-tmpdir';
import { FAST_WORKERS, SLOW_WORKERS } from './test/support/workers';

/**
 * Files that belong to `heavy` besides any `*.heavy.test.ts`: each for the run that makes it heavy.
 * A file that is not here and not named so is `unit`.
 */
const HEAVY_FILES = [
  // Imports 10,000 rows into the sandbox through the real core.
  'test/bulk/apply-sandbox.test.ts',
  // 18 SIGKILLs of a core writing its outbox.
  'test/core/crash.test.ts',
  // electron-builder packs the app.
  'test/release/pack.test.ts',
];
const HEAVY = ['test/**/*.heavy.test.ts', ...HEAVY_FILES];
const NOT_UNIT = ['test/e2e/**', 'test/components/**', 'node_modules/**', ...HEAVY];
const OVERRIDING = filesOverridingAtTopLevel(fileURLToPath(new URL('.', import.meta.url)));
const HEAVY_OVERRIDING = OVERRIDING.filter((file) => file.endsWith('.heavy.test.ts') || HEAVY_FILES.includes(file));

/** Bundles the CLI, the hosts and the preview's worker thread once a run (process-bundles-setup.ts). */
const PROCESS_BUNDLES = 'test/support/process-bundles-setup.ts';

const FAST = 0;
const SLOW = 1;

export default defineConfig({
  test: {
    reporters: ['default', './test/support/slowest-files.ts'],
    // The known slowest files start first in each group, whatever their project, in a fresh clone
    // too (slow-first-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...NOT_UNIT, ...OVERRIDING],
          // The preview's worker thread (and the processes heavy starts), bundled once for the run.
          globalSetup: [PROCESS_BUNDLES],
          isolate: false,
          maxWorkers: FAST_WORKERS,
          sequence: { groupOrder: FAST },
        },
      },
      ...(OVERRIDING.length === 0
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'unit-isolated',
                include: OVERRIDING,
                globalSetup: [PROCESS_BUNDLES],
                exclude: NOT_UNIT,
                maxWorkers: FAST_WORKERS,
                sequence: { groupOrder: FAST },
              },
            },
          ]),
      {
        // The renderer's components in Debian's Chromium (never a browser Playwright downloads),
        // one page for every file in turn (fileParallelism: false; maxWorkers only matches the
        // group's): each file renders into a fresh root of the same page.
        plugins: [react()],
        test: {
          name: 'components',
          include: ['test/components/**/*.test.tsx'],
          setupFiles: ['test/components/support/setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
          // Not extending the root's test options, so its poll bound is given again: expect.poll and
          // expect.element gave up after Vitest's 1 s, which a loaded machine can take to render.
          expect: { poll: { timeout: 15_000 } },
          maxWorkers: FAST_WORKERS,
          sequence: { groupOrder: FAST },
          browser: {
            enabled: true,
            headless: true,
            fileParallelism: false,
            provider: playwright({
              launchOptions: {
                executablePath: CHROMIUM_PATH,
                args: CHROMIUM_ARGS,
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      // The heavy files share a process per worker too (each start and import of the app's modules
      // was about a CPU-second a file), but for those that override a fixture at their top level.
      ...[false, ...(HEAVY_OVERRIDING.length > 0 ? [true] : [])].map((isolated) => ({
        extends: true as const,
        test: {
          name: isolated ? 'heavy-isolated' : 'heavy',
          include: isolated ? HEAVY_OVERRIDING : HEAVY,
          isolate: isolated,
          // The CLI and the other processes these files start, bundled once for the run.
          globalSetup: [PROCESS_BUNDLES],
          exclude: ['test/e2e/**', 'node_modules/**', ...(isolated ? [] : OVERRIDING)],
          maxWorkers: SLOW_WORKERS,
          // A cap, not a wait: these files read gigabyte files and hostile inputs in child processes.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: SLOW },
        },
      })),
      // Its groupOrder and maxWorkers are SLOW's (it also runs alone with -c).
      './vitest.e2e.config.ts',
    ],
    // Caps, not waits: a unit file takes seconds on an idle machine, but on a loaded one (a run beside
    // other runs, load 25 on two cores) 20 s cut off tests that were only slow, and an expect.poll
    // gave up after Vitest's 1 s on a state it would have reached.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // Temp folders in memory: the app's disk syncs cost nothing there (test-tmpdir.ts).
    env: testTmpdirEnv(),
  },
});
