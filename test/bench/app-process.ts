// The app as its own process for the benchmarks, so its memory and start-up are its own: `node
// --import tsx electron/start.ts --browser` on a data folder, its address read from its first line.
// It never outlives the bench: it runs in a process group of its own, which the bench's exit and
// signal handlers stop, and exit-with-parent.mjs stops it when the bench's end closes its stdin (even
// a SIGKILL). `npx tsx test/bench/app-process.ts --hold DIR` starts one and waits (for the kill test).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageApi, type PageCall } from '../support/page-api';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const GUARD = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));
const PAGE_URL = /Sitewalk is running at (http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/;

export interface AppProcess {
  pid: number;
  /** The page's address, token included. */
  url: string;
  /** Calls the app's API as the page does. */
  call: PageCall;
  /** Stops the app (SIGTERM to its group, SIGKILL if it has not ended in 15 s) and waits for it. */
  stop(): Promise<void>;
}

/** Every app this process started and has not seen end: stopped however the bench ends. */
const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Gone already.
  }
}

let handlersInstalled = false;
function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // The bench ending with apps still running (an error before their stop): each is asked to stop as
  // on Ctrl-C, and stops on its own (start.ts gives itself 15 s, then exits).
  const stopAll = () => {
    for (const child of running) killGroup(child, 'SIGTERM');
    running.clear();
  };
  process.on('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopAll();
      process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const)[signal]);
    });
  }
}

export async function spawnApp(dataDir: string): Promise<AppProcess> {
  installHandlers();
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', GUARD, 'electron/start.ts', '--browser', '--no-open', '--port', '0', '--data-dir', dataDir], {
    cwd: projectDir,
    // Its own process group: a signal to the group reaches anything it starts too.
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  const ended = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  let logs = '';
  child.stderr!.on('data', (chunk: Buffer) => void (logs += chunk.toString()));
  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
    await ended;
    clearTimeout(timer);
  };
  try {
    const [, origin, token] = await new Promise<RegExpExecArray>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = PAGE_URL.exec(out);
        if (match) resolve(match);
      });
      child.once('exit', (code, signal) => reject(new Error(`the app ended (${signal ?? code}) before it gave its address:\n${logs}`)));
    });
    return { pid: child.pid!, url: `${origin}/#token=${token}`, call: pageApi(origin!, token!), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// `--hold DIR`: start an app on DIR, say its process ID and address, and wait to be ended.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--hold' && process.argv[3]) {
  const app = await spawnApp(process.argv[3]);
  process.stdout.write(`app ${app.pid} ${app.url}\n`);
  setInterval(() => undefined, 60_000);
}
