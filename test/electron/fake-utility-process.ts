// A fake of Electron's utilityProcess, built on child_process.fork with the semantics the app relies
// on: fork(modulePath, args, options) starts the module with process.parentPort (fake-parent-port.mjs)
// and no process.send; the parent's object emits 'spawn', 'message' (the data sent) and 'exit' with a
// number (128 + the signal's number when a signal ended it), has `pid` until the exit, postMessage()
// sends a structured clone (the 'advanced' serialization) and kill() is SIGTERM, returning whether it
// was sent. MessagePorts are not faked: postMessage refuses any transfer.
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';

const PARENT_PORT = new URL('./fake-parent-port.mjs', import.meta.url).href;

type Stdio = 'ignore' | 'inherit' | 'pipe';

export interface FakeForkOptions {
  env?: NodeJS.ProcessEnv;
  execArgv?: string[];
  cwd?: string;
  stdio?: Stdio | Stdio[];
  serviceName?: string;
}

export class FakeUtilityProcess extends EventEmitter {
  private readonly child: ChildProcess;
  private exited = false;

  constructor(modulePath: string, args: string[], options: FakeForkOptions) {
    super();
    const [out, err] = typeof options.stdio === 'string' || options.stdio === undefined ? [options.stdio ?? 'inherit', options.stdio ?? 'inherit'] : options.stdio.slice(1);
    this.child = fork(modulePath, args, {
      execArgv: [...(options.execArgv ?? []), '--import', PARENT_PORT],
      serialization: 'advanced',
      stdio: ['ignore', out ?? 'inherit', err ?? 'inherit', 'ipc'],
      ...(options.env ? { env: options.env } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('message', (message) => this.emit('message', message));
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      this.emit('exit', code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  }

  get pid(): number | undefined {
    return this.exited ? undefined : this.child.pid;
  }

  get stdout(): NodeJS.ReadableStream | null {
    return this.child.stdout;
  }

  postMessage(message: unknown, transfer?: unknown[]): void {
    if (transfer?.length) throw new Error('the fake utilityProcess does not transfer MessagePorts');
    if (!this.exited && this.child.connected) this.child.send(message as never);
  }

  kill(): boolean {
    if (this.exited) return false;
    return this.child.kill('SIGTERM');
  }
}

export const fakeUtilityProcess = {
  fork: (modulePath: string, args: string[] = [], options: FakeForkOptions = {}) => new FakeUtilityProcess(modulePath, args, options),
};
