// How the end-to-end tests reach the app: the real app as `npm start -- --browser` runs it (the same
// openBrowserApp of electron/start.ts, in this process rather than a child that pays for Node and tsx
// at every test; test/host/start.test.ts covers the command itself) on a data folder it is given,
// Debian's Chromium through Playwright with every non-loopback request refused (no tile server
// here, and nothing may leave the machine), the page's CSP violations and errors collected,
// direct API calls with the run's token for setting up and checking, and the sandbox's inspection
// JSON. Tests do not call the starters themselves: fixtures.ts hands them out and takes them down.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { vi } from 'vitest';
import type { ProfileView } from '../../electron/shared/contract/index';
import { openBrowserApp, parseStartArgs } from '../../electron/start';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import { pageApi } from '../support/page-api';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS = join(ROOT, 'test-results', 'e2e');

const PAGE_URL = /^(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)$/;

export interface App {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The address the user opens (with the token in the fragment). */
  url: string;
  token: string;
  dataDir: string;
  /** One API call as the page makes it; throws on a refused call. */
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  /** What the app logged (its stderr when run as a command). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts the app on `dataDir` (which the caller made and removes), with more `npm start` options if
 * given (`--port`, `--check-every`); `stop()` ends it and what it started.
 */
export async function startApp(dataDir: string, extraArgs: readonly string[] = []): Promise<App> {
  const parsed = parseStartArgs(['--browser', '--no-open', '--port', '0', '--data-dir', dataDir, ...extraArgs]);
  if (!('browser' in parsed)) throw new Error(`startApp: ${'error' in parsed ? parsed.error : 'unexpected --help'}`);
  let logs = '';
  const opened = await openBrowserApp({
    dataDir,
    port: parsed.port,
    log: (line) => void (logs += `${line}\n`),
    ...(parsed.checkEveryMs !== undefined ? { checkEveryMs: parsed.checkEveryMs } : {}),
  });
  let stopped: Promise<void> | null = null;
  const stop = () => (stopped ??= opened.close());
  try {
    const match = PAGE_URL.exec(opened.host.pageUrl);
    if (!match) throw new Error(`the app gave an address of an unexpected form: ${opened.host.pageUrl}`);
    const origin = match[1]!;
    const token = match[2]!;
    const call = pageApi(origin, token);
    // The app fetches map tiles itself now: point it at a closed loopback port, so the tests see the
    // same "no tiles" map on a machine with internet as on one without (a test may set its own server).
    await call('saveSettings', { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png' });
    return { origin, url: `${origin}/#token=${token}`, token, dataDir, call, stderr: () => logs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Why the end-to-end tests cannot run here, or null. They are skipped with this reason on a machine
 * without Chromium, and required under CI (global-setup.ts fails the run there instead).
 */
export const E2E_SKIP_REASON: string | null = existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set SITEWALK_CHROMIUM)`;

export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors other than refused tile requests. */
  errors: string[];
  /** Requests to anything but loopback that were refused (the tile server, or a bug). */
  refused: string[];
  /** CSP violations the page reported. */
  cspViolations(): Promise<string[]>;
  screenshot(name: string): Promise<string>;
  /** Closes the browser context; a second call does nothing. */
  close(): Promise<void>;
}

/** A fresh browser context at 1280×720 on the app; nothing but loopback is reachable. */
export async function openSession(browser: Browser, app: App): Promise<Session> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
  const refused: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
    refused.push(url.href);
    return route.abort('internetdisconnected');
  });
  // Recorded from the first script on, without touching the page's own code.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Refused requests are the test's doing; a tile the host could not get (no tile server here)
    // is the app's grid fallback at work.
    if (/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/.test(text)) return;
    if (/Failed to load resource: the server responded with a status of 50[24]/.test(text) && /\/tiles\/(?:[^/?]+\/)?\d+\/\d+\/\d+/.test(message.location().url)) return;
    errors.push(`console: ${text}`);
  });
  await page.goto(app.url);
  let closed: Promise<void> | null = null;
  return {
    context,
    page,
    errors,
    refused,
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.slice()),
    async screenshot(name) {
      await mkdir(ARTIFACTS, { recursive: true });
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    close: () => (closed ??= context.close()),
  };
}

/**
 * The built-in Sandbox's address, as the API's profile view reports it. The app starts its sandbox
 * on first need, so this asks for the rendering qualities (one service call) until it runs.
 */
export async function findSandboxUrl(app: App): Promise<string> {
  return vi.waitFor(
    async () => {
      const profiles = await app.call<ProfileView[]>('listProfiles');
      const sandbox = profiles.find((p) => p.builtIn);
      if (!sandbox) throw new Error('no built-in Sandbox profile');
      const url = sandbox.baseUrl.replace(/\/+$/, '');
      if (/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) return url;
      await app.call('getRenderingQualities', { refresh: true });
      throw new Error(`the built-in sandbox is not running yet (its address: ${url || 'none'})`);
    },
    { timeout: 60_000, interval: 250 },
  );
}

/** GET {sandbox}/_sandbox/<path> as JSON. */
export async function inspect<T>(baseUrl: string, path: string): Promise<T> {
  const response = await fetch(`${baseUrl}/_sandbox/${path}`);
  if (!response.ok) throw new Error(`sandbox ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Answers the first-run welcome with the Sandbox and waits for the app to settle on it. */
export async function chooseSandbox(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Try it with the Sandbox/ }).click();
  await page.locator('dialog[open]').waitFor({ state: 'hidden' });
}

/** How many pins the map's canvas drew last (the pin layer records it on the map element). */
export async function pinsDrawn(page: Page): Promise<number> {
  return Number((await page.getByTestId('map').getAttribute('data-pins-drawn')) ?? '0');
}
