// End-to-end tests: Debian's Chromium (through Playwright) drives the real app, served by the
// browser host against its in-process sandbox. Two files at a time: a test spends much of its time
// waiting on the page, so two keep 2 cores busy (four files of the suite on a busy machine: 181 s one
// at a time, 74 s two at a time); generous timeouts for a loaded machine, and the renderer built once
// before any test. What a test gets (app, browser, page…) is in test/e2e/fixtures.ts;
// `expect.poll` waits as long as the app may take on such a machine unless a test says otherwise.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The last group of `npm test` (vitest.config.ts lists this file as a project); alone with -c.
    name: 'e2e',
    sequence: { groupOrder: 3 },
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    expect: { poll: { timeout: 60_000, interval: 250 } },
  },
});
