// The data file's companion: every applied service call is appended, as one JSON line (operation,
// parameters, time), to <data file>.log before it is answered, and replayed over the data file at
// load. Rewriting a 10,000-site data file for every call cost tens of milliseconds each (the
// built-in sandbox shares the app's process, so the app stalled with it); an appended line costs
// a fraction of one. The data file is rewritten, and the log emptied, every few thousand calls and
// at every other kind of change. Operations are deterministic given the state, the parameters and
// the time, so a replay rebuilds exactly what was answered. A torn last line (a crash mid-append)
// was never answered and is ignored.
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { isOperationName, runOperation, type OperationName, type Params } from './operations';
import { StateError, type SandboxState } from './state';

export interface LoggedOperation {
  operation: OperationName;
  params: Params;
  /** The time the operation ran with (ISO). */
  at: string;
}

export function operationLogPath(dataFile: string): string {
  return `${dataFile}.log`;
}

export function logLine(entry: LoggedOperation): string {
  return `${JSON.stringify(entry)}\n`;
}

/** Applies the logged operations to `state` (in place); returns how many were applied. */
export function replayOperationLog(path: string, state: SandboxState): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new StateError(`Cannot read the sandbox operation log ${path}: ${(error as Error).message}`);
  }
  // What follows the last newline is either nothing or a torn line.
  const complete = text.split('\n').slice(0, -1);
  let applied = 0;
  complete.forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: LoggedOperation;
    try {
      entry = JSON.parse(line) as LoggedOperation;
    } catch {
      throw new StateError(`Line ${index + 1} of the sandbox operation log ${path} is damaged. The files were left as they are; move both away to start from the seed data.`);
    }
    if (!isOperationName(entry.operation) || typeof entry.params !== 'object' || entry.params === null || Number.isNaN(Date.parse(entry.at))) {
      throw new StateError(`Line ${index + 1} of the sandbox operation log ${path} is not an operation. The files were left as they are.`);
    }
    const at = new Date(entry.at);
    try {
      runOperation(entry.operation, entry.params, { state, now: () => at });
    } catch (error) {
      throw new StateError(`Line ${index + 1} of the sandbox operation log ${path} no longer applies (${(error as Error).message}); the data file and its log disagree.`);
    }
    applied++;
  });
  return applied;
}

/** Appends lines durably (write + fsync) and counts what the log holds since it was last emptied. */
export class OperationLog {
  private count = 0;

  constructor(readonly path: string) {}

  get records(): number {
    return this.count;
  }

  append(lines: readonly string[]): void {
    const fd = openSync(this.path, 'a', 0o600);
    try {
      writeSync(fd, lines.join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.count += lines.length;
  }

  /** After the data file was rewritten with everything the log held. */
  clear(): void {
    rmSync(this.path, { force: true });
    this.count = 0;
  }
}
