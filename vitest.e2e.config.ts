// End-to-end tests: Debian's Chromium (through Playwright) drives the real app, served by the
// browser host against its in-process sandbox. One file more at a time than there are cores: a test
// spends much of its time waiting on the page, the app and the sandbox, so a file keeps about half a
// core busy: the project takes 238 s of CPU (Chromium included) and, two files at a time on an idle
// 2-core machine, 433 s of test time — about one core idle throughout. SITEWALK_E2E_WORKERS sets
// another number. Generous timeouts for a loaded machine, and the renderer built once before any
// test. What a test gets (app, browser, page…) is in test/e2e/fixtures.ts; `expect.poll` waits as
// long as the app may take on such a machine unless a test says otherwise.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The last group of `npm test` (vitest.config.ts lists this file as a project); alone with -c.
    name: 'e2e',
    sequence: { groupOrder: 3 },
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    maxWorkers: Number(process.env.SITEWALK_E2E_WORKERS) || availableParallelism() + 1,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    expect: { poll: { timeout: 60_000, interval: 250 } },
  },
});
