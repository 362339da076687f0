// End-to-end tests: Debian's Chromium (through Playwright) drives the real app, served by the
// browser host against its in-process sandbox. One file at a time (each starts an app and a
// browser, and the machine has 2 cores), generous timeouts for a loaded machine, and the renderer
// built once before any test. What a test gets (app, browser, page…) is in test/e2e/fixtures.ts;
// `expect.poll` waits as long as the app may take on such a machine unless a test says otherwise.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The last group of `npm test` (vitest.config.ts lists this file as a project); alone with -c.
    name: 'e2e',
    sequence: { groupOrder: 2 },
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    expect: { poll: { timeout: 60_000, interval: 250 } },
  },
});
