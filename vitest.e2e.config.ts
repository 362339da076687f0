// End-to-end tests: Debian's Chromium (through Playwright) drives the real app, served by the
// browser host against its in-process sandbox. A test spends most of its time waiting on the page,
// the app and the sandbox (a file keeps about 0.4 of a core busy), so several files run at once:
// in `npm test` beside the heavy files, in one group with one worker count (test/support/workers.ts,
// SITEWALK_E2E_WORKERS). Generous timeouts for a loaded machine, and the renderer built once before
// any test. What a test gets (app, browser, page…) is in test/e2e/fixtures.ts; `expect.poll` waits
// as long as the app may take on such a machine unless a test says otherwise.
import { defineConfig } from 'vitest/config';
import { testTmpdirEnv } from './test/support/test-tmpdir';
import { SLOW_WORKERS } from './test/support/workers';

export default defineConfig({
  test: {
    // The slow group of `npm test`, beside `heavy` (vitest.config.ts lists this file as a project); alone with -c.
    name: 'e2e',
    sequence: { groupOrder: 1 },
    include: ['test/e2e/**/*.test.ts'],
    // A worker's files share its process: the app is imported once a worker, not once a file (a test
    // already starts its own app, so nothing of one file's app reaches the next). A fixture override
    // stays inside a describe here (test/support/isolation.ts; test/unit/test-isolation.test.ts).
    isolate: false,
    // The renderer built, and the import preview's worker thread bundled (process-bundles-setup.ts).
    globalSetup: ['test/e2e/global-setup.ts', 'test/support/process-bundles-setup.ts'],
    maxWorkers: SLOW_WORKERS,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Temp folders in memory: the app's disk syncs cost nothing there (test-tmpdir.ts).
    env: testTmpdirEnv(),
    expect: { poll: { timeout: 60_000, interval: 250 } },
  },
});
