// The MBTiles reader's process in the Electron app: a utility process (Electron's fork, which its
// fuses leave open where child_process.fork would need the app run as Node) running the bundled
// mbtiles-child.cjs, which answers over process.parentPort. The core drives it through the same
// ReaderProcess as a forked child (core/tiles/mbtiles-process.ts).
import type { ReaderMessage, ReaderProcessStarter } from '../core/tiles/index';

/** The part of a utility process used here, as Electron's UtilityProcess has it. */
export interface UtilityChild {
  readonly pid: number | undefined;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'message', listener: (message: unknown) => void): this;
  once(event: 'exit', listener: (code: number) => void): this;
}

/** Electron's `utilityProcess` (a fake of it in tests). */
export interface UtilityProcessApi {
  fork(modulePath: string, args?: string[], options?: { stdio?: 'ignore' | 'inherit' | 'pipe'; serviceName?: string }): UtilityChild;
}

/** A ReaderProcessStarter that runs `modulePath` (dist/electron/mbtiles-child.cjs) as a utility process. */
export function utilityReaderProcess(utilityProcess: UtilityProcessApi, modulePath: string): ReaderProcessStarter {
  return (events) => {
    // No cwd: a folder inside app.asar cannot be a working folder, and the child needs none.
    const child = utilityProcess.fork(modulePath, [], { stdio: 'ignore', serviceName: 'Sitewalk MBTiles reader' });
    let ended = false;
    child.on('message', (message) => events.message(message as ReaderMessage));
    child.once('exit', (code) => {
      ended = true;
      events.exit(`exit code ${code}`);
    });
    return {
      get pid() {
        return child.pid;
      },
      send(call) {
        if (!ended) child.postMessage(call);
      },
      kill() {
        // child.kill() is SIGTERM; a read stuck in SQLite is ended by SIGKILL, sent by pid (the exit event follows).
        const pid = child.pid;
        if (pid !== undefined && !ended) {
          try {
            process.kill(pid, 'SIGKILL');
            return;
          } catch {
            // Gone already, or no such signal here: Electron's own kill.
          }
        }
        child.kill();
      },
    };
  };
}
