// The end-to-end test API: import `test` from here and name what the test needs — `page`, `session`,
// `app`, `sandboxUrl`, `tempDir`, `inputFile`, `browser`, `newSession` — as its parameters. Each is
// set up when a test names it and taken down after, in reverse order: a failed test first leaves a
// picture of its page in test-results/e2e/FAILED-<test name>.png, then its browser context, the
// profiles it added (their keys may sit in the OS keyring, outside any folder), the app and its
// temporary folder go. Chromium is launched once a worker (the slow part); everything else is fresh
// for each test, so no test sees another's data. Without Chromium every test reports itself
// skipped, with the reason (global-setup.ts makes that a failure under CI). A file with a need of
// its own extends this `test`. Also here: `demo` (the built-in Sandbox's demo sites, all drawn) and
// `service` (the account's own service, which a test can stop and restart); `testOnDemoSites` gives
// every test of a file `demo`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/index';
import type { Browser } from 'playwright';
import type { SandboxSite } from '../../electron/sandbox/state';
import type { ProfileView } from '../../electron/shared/contract/index';
import { chooseSandbox, E2E_SKIP_REASON, findSandboxUrl, inspect, launchChromium, openSession, pinsDrawn, startApp, type App, type Session } from './helpers';
import { CHROMIUM_PATH } from '../support/chromium';

export { describe, expect, vi } from 'vitest';

/** A service of the test's own, so it can be stopped and started again. */
export interface AccountService {
  /** Its address, the same each time it runs. */
  url: string;
  /** Its sites when the test began. */
  sites: SandboxSite[];
  /** Goes away: connections are refused (hung calls are cut). */
  stop(): Promise<void>;
  /** Comes back on the same address with the same data and no faults. */
  restart(): Promise<void>;
}

export const test = base
  /** Debian's Chromium, or the one SITEWALK_CHROMIUM names. */
  .extend('chromiumPath', { scope: 'worker' }, CHROMIUM_PATH)
  .extend('skipWithoutChromium', { auto: true }, ({ skip }) => {
    if (E2E_SKIP_REASON !== null) skip(E2E_SKIP_REASON);
  })
  /**
   * One Chromium for every file a worker runs (a launch costs about a CPU-second: one a file would be 12 a run),
   * launched again for the next file if it went away (a crash stays with the file it happened in).
   * Each test gets its own context in it, so no test sees another's cookies, storage or cache.
   */
  .extend('chromium', { scope: 'worker' }, ({ chromiumPath }, { onCleanup }) => {
    let running: Promise<Browser> | null = null;
    onCleanup(async () => {
      await (await running?.catch(() => null))?.close();
    });
    return async (): Promise<Browser> => {
      const current = await running?.catch(() => null);
      if (!current?.isConnected()) running = launchChromium(chromiumPath);
      return running!;
    };
  })
  .extend('browser', { scope: 'file' }, ({ chromium }) => chromium())
  /** A fresh folder for this test: the app's data (in data/) and the files the test writes. */
  .extend('tempDir', async ({ task }, { onCleanup }) => {
    const dir = await mkdtemp(join(tmpdir(), `sitewalk-e2e-${slug(task.name).slice(0, 40)}-`));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    return dir;
  })
  /** Writes a file into the test's folder and returns its path, to hand to the page's file pickers. */
  .extend('inputFile', ({ tempDir }) => async (name: string, text: string): Promise<string> => {
    const path = join(tempDir, name);
    await writeFile(path, text);
    return path;
  })
  /** More `npm start` options for the app (a file sets them with `test.override('appArgs', […])`). */
  .extend('appArgs', [] as string[])
  /** The app as `npm start -- --browser` runs it (with its built-in sandbox), on a fresh data folder. */
  .extend('app', async ({ tempDir, appArgs }, { onCleanup }) => {
    const dataDir = join(tempDir, 'data');
    await mkdir(dataDir);
    const app = await startApp(dataDir, appArgs);
    onCleanup(async () => {
      await forgetAddedProfiles(app);
      await app.stop();
    });
    return app;
  })
  /**
   * Opens another browser context on the app (a browser with nothing cached). All are closed after
   * the test; if it failed, the last one still open is photographed first.
   */
  .extend('newSession', ({ browser, app, task }, { onCleanup }) => {
    const opened: Session[] = [];
    onCleanup(async () => {
      const last = opened.filter((session) => !session.page.isClosed()).at(-1);
      if (last && task.result?.state === 'fail') await last.screenshot(`FAILED-${slug(task.name).slice(0, 80)}`).catch(() => undefined);
      for (const session of opened) await session.close().catch(() => undefined);
    });
    return async (): Promise<Session> => {
      const session = await openSession(browser, app);
      opened.push(session);
      return session;
    };
  })
  /** The page on the app, with what it reported (errors, refused requests, CSP violations). */
  .extend('session', ({ newSession }) => newSession())
  .extend('page', ({ session }) => session.page)
  /** The welcome answered with "Try it with the Sandbox"; the built-in sandbox's address. */
  .extend('sandboxUrl', async ({ app, page }) => {
    await chooseSandbox(page);
    return findSandboxUrl(app);
  })
  /** On the built-in Sandbox (`sandboxUrl`) with all its demo sites drawn: those sites as the service has them. */
  .extend('demo', async ({ page, sandboxUrl }) => {
    const demo = await inspect<SandboxSite[]>(sandboxUrl, 'sites');
    await expect.poll(() => pinsDrawn(page), { message: 'the demo sites drawn' }).toBe(demo.length);
    return demo;
  })
  /** The account's own service: a sandbox of the test's, its state kept in the test's folder. */
  .extend('service', async ({ tempDir }, { onCleanup }): Promise<AccountService> => {
    const dataFile = join(tempDir, 'service-state.json');
    let running: RunningSandbox | null = await startSandbox({ port: 0, dataFile });
    const { url } = running;
    const port = Number(new URL(url).port);
    onCleanup(async () => {
      await running?.close();
    });
    return {
      url,
      sites: running.snapshot().sites,
      async stop() {
        await running?.close();
        running = null;
      },
      async restart() {
        running = await startSandbox({ port, dataFile });
      },
    };
  });

/** `test` for a file whose every test starts on the built-in Sandbox with all its demo sites drawn (`demo`). */
export const testOnDemoSites = test.extend('demoDrawn', { auto: true }, ({ demo }) => demo);

/** A profile a test added goes with it, and its key too, wherever the app kept it. */
async function forgetAddedProfiles(app: App): Promise<void> {
  const profiles = await app.call<ProfileView[]>('listProfiles').catch((): ProfileView[] => []);
  const added = profiles.filter((p) => !p.builtIn);
  if (added.length === 0) return;
  const builtIn = profiles.find((p) => p.builtIn);
  if (builtIn) await app.call('useProfile', builtIn.id).catch(() => undefined);
  for (const p of added) await app.call('deleteProfile', p.id).catch(() => undefined);
}

function slug(text: string): string {
  return text.replace(/[^a-z0-9]+/gi, '-');
}
