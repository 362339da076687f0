// The MBTiles reader's process in a Node host (the browser host, the CLI): child_process.fork of
// mbtiles-child, given prebuilt (../../node/prebuilt.ts), bundled beside this module
// (mbtiles-child.cjs), or its TypeScript source under the loader these hosts run with. The child never
// keeps its host alive: the pool's deadline timers do while a read is pending. Also the pool of a
// caller that brings none (openTileFile without one).
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prebuilt } from '../../node/prebuilt';
import { MbtilesPool } from './mbtiles-pool';
import type { ReaderMessage, ReaderProcess, ReaderProcessEvents, ReaderProcessStarter } from './mbtiles-process';

/** Beside a bundle that includes this module; where the host runs from source, the .ts beside it. */
const BUNDLED = new URL('./mbtiles-child.cjs', import.meta.url);
const SOURCE = new URL('./mbtiles-child.ts', import.meta.url);

const present = (url: URL): boolean => url.protocol === 'file:' && existsSync(fileURLToPath(url));

/** A ReaderProcessStarter for Node. Throws when neither the bundle nor the source is there. */
export function forkReaderProcess(events: ReaderProcessEvents): ReaderProcess {
  const options = { serialization: 'advanced' as const, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] as ('ignore' | 'ipc')[] };
  let child;
  const given = prebuilt('mbtiles-child');
  if (given) child = fork(given, [], options);
  else if (present(BUNDLED)) child = fork(fileURLToPath(BUNDLED), [], options);
  // The loader the browser host and the CLI run under, found from here (not from the working folder):
  // require's resolution finds the file import.meta.resolve would (tsx exports one entry), and, unlike
  // it, also works in a CommonJS bundle of this module (which reaches this line only without its child).
  else if (present(SOURCE)) child = fork(fileURLToPath(SOURCE), [], { ...options, execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] });
  else throw new Error(`the MBTiles reader is missing (${fileURLToPath(SOURCE)})`);
  let ended = false;
  const end = (how: string) => {
    if (ended) return;
    ended = true;
    events.exit(how);
  };
  child.on('message', (message: ReaderMessage) => events.message(message));
  child.once('exit', (code, signal) => end(signal ? `killed by ${signal}` : `exit code ${code}`));
  // A process that could not be started has no exit to wait for.
  child.once('error', (error) => {
    child.kill('SIGKILL');
    end(error.message);
  });
  child.unref();
  child.channel?.unref();
  return {
    get pid() {
      return child.pid;
    },
    send(call) {
      // A closed channel: the exit that follows says so.
      if (child.connected) child.send(call, (error) => void error);
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}

/** Node can fork; Electron's main process cannot (its host passes a utilityProcess starter instead). */
export function nodeReaderStarter(): ReaderProcessStarter | null {
  return process.versions.electron ? null : forkReaderProcess;
}

let shared: MbtilesPool | null = null;

/** One pool for the callers of this process that were given none. */
export function sharedMbtilesPool(): MbtilesPool {
  shared ??= new MbtilesPool({ starter: nodeReaderStarter() });
  return shared;
}
