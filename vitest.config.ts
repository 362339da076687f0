// Every test, in four projects run one group after the other: `unit` (the fast inner loop), then
// `components` (the renderer's components rendered in Chromium, fed by the real store and a fake
// host: test/components), then `heavy` (the runs that take a machine's whole attention: tens of
// thousands of rows, SIGKILLs, gigabyte files, packaging), then `e2e` (vitest.e2e.config.ts:
// Chromium drives the app).
// `npx vitest run test/x.test.ts` runs one file in whichever project holds it;
// `--project unit` runs only the inner loop.
//
// Workers: most unit files wait on sockets, child processes and the disk rather than the CPU, so
// one worker more than there are cores keeps the cores busy. Measured on 2 busy cores, 20 files of
// test/cli, host, gps, basemaps: 1 worker 89 s, 3 workers 48 s, 4 workers 53 s.
// SITEWALK_TEST_WORKERS sets another number. The heavy files each want the machine: two at once.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import react from '@vitejs/plugin-react';
import SlowFirstSequencer from './test/support/slow-first-sequencer';

const UNIT_WORKERS = Number(process.env.SITEWALK_TEST_WORKERS) || availableParallelism() + 1;

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

export default defineConfig({
  test: {
    reporters: ['default', './test/support/slowest-files.ts'],
    // The known slowest files start first in each group, in a fresh clone too (slow-first-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/e2e/**', 'test/components/**', 'node_modules/**', ...HEAVY],
          maxWorkers: UNIT_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The renderer's components in Debian's Chromium (never a browser Playwright downloads),
        // one page for every file in turn: each file renders into a fresh root of the same page.
        plugins: [react()],
        test: {
          name: 'components',
          include: ['test/components/**/*.test.tsx'],
          setupFiles: ['test/components/support/setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
          sequence: { groupOrder: 1 },
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.SITEWALK_CHROMIUM ?? '/usr/bin/chromium',
                args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'heavy',
          include: HEAVY,
          exclude: ['test/e2e/**', 'node_modules/**'],
          maxWorkers: 2,
          // A cap, not a wait: these files read gigabyte files and hostile inputs in child processes.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 2 },
        },
      },
      './vitest.e2e.config.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
