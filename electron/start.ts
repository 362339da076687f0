// `npm start`: builds what is missing, then runs the Electron app when an Electron binary is
// installed, or else the browser host on loopback. Contract: in browser mode stdout carries exactly
// one line, "Sitewalk is running at http://127.0.0.1:PORT/#token=…"; everything else (build output,
// the reason for the mode, logs) goes to stderr. SIGINT/SIGTERM flush the outbox, stop the sandbox
// and exit 0.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startBrowserHost, type RunningBrowserHost } from './browser-host/server';
import { openHostBackend, type HostBackend } from './core/host-backend';
import { builtInSandbox } from './sandbox/builtin';
import { defaultDataDir, resolveDataDir } from './core/storage/data-dir';
import { tileUserAgent } from './core/tiles';
import { bundleElectron, ensureRenderer, findElectronBinary, paths, ROOT } from './main/build';

const USAGE = `Usage: npm start -- [options]

Starts Sitewalk: the desktop app when Electron is installed, otherwise the browser version on
http://127.0.0.1 (only this computer can reach it).

Options:
  --browser          use the browser version even when Electron is available
  --port N           port for the browser version (default: any free port)
  --data-dir DIR     where profiles, sites and the outbox are kept
                     (default: $SITEWALK_DATA_DIR, else ${defaultDataDir()})
  --no-open          do not open the system browser
  --check-every S    re-check the service every S seconds while nothing is being sent
                     (a free request for its description; default 20)
  -h, --help         show this help
`;

interface StartOptions {
  browser: boolean;
  port: number;
  dataDir: string;
  open: boolean;
  /** How often the service is re-checked with nothing in flight, ms; undefined: the core's default. */
  checkEveryMs?: number;
}

export function parseStartArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): StartOptions | { help: true } | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        browser: { type: 'boolean', default: false },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        'check-every': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const { values } = parsed;
  if (values.help) return { help: true };
  let port = 0;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) return { error: `--port must be a number from 0 to 65535, not "${values.port}".` };
    port = Number(values.port);
  }
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') return { error: '--data-dir must name a folder.' };
  let checkEveryMs: number | undefined;
  if (values['check-every'] !== undefined) {
    const seconds = Number(values['check-every']);
    if (!/^\d+(\.\d+)?$/.test(values['check-every']) || seconds < 0.1 || seconds > 3600) return { error: `--check-every must be a number of seconds from 0.1 to 3600, not "${values['check-every']}".` };
    checkEveryMs = Math.round(seconds * 1000);
  }
  // The same rule as the Electron host and the `sitewalk` CLI: one set of profiles, one outbox.
  const dataDir = resolveDataDir({ flag: values['data-dir'], env });
  return { browser: values.browser === true, port, dataDir, open: values['no-open'] !== true, ...(checkEveryMs !== undefined ? { checkEveryMs } : {}) };
}

function say(line: string): void {
  process.stderr.write(`sitewalk: ${line}\n`);
}

/** Opens the system browser; never fails the start (a headless machine has none). */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true, windowsHide: true });
    child.on('error', () => say('could not open a browser; open the address above yourself.'));
    child.unref();
  } catch {
    say('could not open a browser; open the address above yourself.');
  }
}

/**
 * Builds the interface when it is missing or out of date. A failed rebuild over an earlier build
 * keeps that build (with a warning): the app still starts with what the user had before.
 */
async function prepareRenderer(): Promise<void> {
  try {
    await ensureRenderer();
  } catch (error) {
    if (!existsSync(paths().rendererIndex)) throw error;
    say(`rebuilding the interface failed, starting with the previous build: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function runElectron(binary: string, options: StartOptions): Promise<number> {
  await prepareRenderer();
  await bundleElectron();
  // The app folder, not the bundle: Electron then reads package.json (name, "main") as a packaged app does.
  const child = spawn(binary, [ROOT, '--data-dir', options.dataDir], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolveExit) => {
    child.on('error', (error) => {
      say(`Electron could not start: ${error.message}`);
      resolveExit(1);
    });
    child.on('exit', (code, signal) => resolveExit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1)));
  });
}

/** The app's version from package.json, for the tile requests' User-Agent; none if it cannot be read. */
function appVersion(): string | undefined {
  try {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The browser version, running: the core's host backend and the browser host serving the interface. */
export interface BrowserApp {
  backend: HostBackend;
  host: RunningBrowserHost;
  /** Stops serving, then flushes the outbox and closes the core (which releases the data folder). */
  close(): Promise<void>;
}

/**
 * Opens the core on the data folder and serves the built interface on loopback (port 0: any free
 * one) — the browser version in this process, as `npm start` runs it and as the end-to-end tests
 * start it. Nothing is left open when it fails.
 */
export async function openBrowserApp(options: { dataDir: string; port: number; log: (line: string) => void; checkEveryMs?: number }): Promise<BrowserApp> {
  // Map tiles through the host (every basemap: servers kept in the data folder for offline use, files read in place).
  const backend = await openHostBackend({
    host: 'browser',
    dataDir: options.dataDir,
    sandbox: builtInSandbox,
    tiles: { userAgent: tileUserAgent(appVersion()) },
    log: options.log,
    ...(options.checkEveryMs !== undefined ? { checkEveryMs: options.checkEveryMs } : {}),
  });
  let host: RunningBrowserHost;
  try {
    host = await startBrowserHost({ hostApi: backend.hostApi, staticDir: paths().rendererDir, port: options.port, tiles: backend.tiles, log: options.log });
  } catch (error) {
    // Release the data folder before giving up, so the next try is not told it is busy.
    await backend.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${options.port} is already in use on 127.0.0.1; choose another with --port, or leave --port out.`);
    }
    throw error;
  }
  return {
    backend,
    host,
    // The backend closes the basemaps' tile cache and any area download with it.
    close: () => host.close().then(() => backend.close()),
  };
}

async function runBrowser(options: StartOptions): Promise<void> {
  await prepareRenderer();
  let app: BrowserApp | null = null;
  let stopping = false;

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: flushing the outbox and stopping.`);
    // A hung close must not keep the process alive forever.
    setTimeout(() => {
      say('shutdown took too long; exiting.');
      process.exit(1);
    }, 15_000).unref();
    Promise.resolve()
      .then(() => app?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          say(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  app = await openBrowserApp({ dataDir: options.dataDir, port: options.port, log: say, ...(options.checkEveryMs !== undefined ? { checkEveryMs: options.checkEveryMs } : {}) });
  if (stopping) return;
  process.stdout.write(`Sitewalk is running at ${app.host.pageUrl}\n`);
  if (options.open) openBrowser(app.host.pageUrl);
}

export async function start(argv: string[]): Promise<void> {
  const options = parseStartArgs(argv);
  if ('help' in options) {
    process.stdout.write(USAGE);
    return;
  }
  if ('error' in options) {
    process.stderr.write(`sitewalk: ${options.error}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (!options.browser) {
    const electron = findElectronBinary();
    if ('path' in electron) {
      process.exitCode = await runElectron(electron.path, options);
      return;
    }
    say(`starting the browser version: ${electron.missing}.`);
  }
  await runBrowser(options);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  start(process.argv.slice(2)).catch((error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
