// The sandbox's state and its durability: the data file (the whole state, replaced atomically) and
// its operation log (one line per applied call, fsync'd before the call is answered; see
// operation-log.ts). A write that fails puts the memory back to what the files hold, so the sandbox
// never answers for a change it could not keep. Without a data file everything stays in memory.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../node/atomic-file';
import { logLine, OperationLog, operationLogPath, replayOperationLog, type LoggedOperation } from './operation-log';
import { seedState, type Seed } from './seed';
import { parseState, persistentView, StateError, type SandboxState } from './state';

/** Calls appended to the operation log before the data file is rewritten whole. */
const CHECKPOINT_AFTER_CALLS = 5_000;

/** The state the files hold (the data file with its log replayed), or null when there is no data file yet. */
export function loadFromDisk(dataFile: string): SandboxState | null {
  const state = loadStateFile(dataFile);
  if (state) replayOperationLog(operationLogPath(dataFile), state);
  return state;
}

/** The state in the data file alone, or null when there is no file. A file that is not a sandbox state is never overwritten. */
export function loadStateFile(path: string): SandboxState | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateError(`Cannot read the sandbox data file ${path}: ${(error as Error).message}`);
  }
  const leftAlone = 'The file was left as it is; fix it, or move it away to start from the seed data.';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StateError(`The sandbox data file ${path} is not valid JSON (${(error as Error).message}). ${leftAlone}`);
  }
  try {
    return parseState(json);
  } catch (error) {
    throw new StateError(`The sandbox data file ${path} does not hold a valid sandbox state: ${(error as Error).message}. ${leftAlone}`);
  }
}

/** The data file's text: the state without this run's call log. */
export function serializeState(state: SandboxState): string {
  return `${JSON.stringify(persistentView(state), null, 1)}\n`;
}

export class PersistentState {
  private current: SandboxState;
  private readonly operationLog: OperationLog | null;
  /** Applied calls whose log lines are not written yet, and the calls waiting for them. */
  private pendingLines: string[] = [];
  private pendingWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private flushScheduled = false;

  constructor(
    private readonly dataFile: string | null,
    initial: SandboxState,
    private readonly log: (line: string) => void,
  ) {
    this.current = initial;
    this.operationLog = dataFile ? new OperationLog(operationLogPath(dataFile)) : null;
  }

  state(): SandboxState {
    return this.current;
  }

  /**
   * Rewrites the data file with the whole state and empties the operation log (which also makes the
   * calls still waiting for their log line durable). On failure the in-memory state returns to
   * what the files hold, those calls are told, and the error is thrown.
   */
  commit(): void {
    if (!this.dataFile) return;
    try {
      mkdirSync(dirname(this.dataFile), { recursive: true });
      writeFileAtomicSync(this.dataFile, serializeState(this.current));
      this.operationLog!.clear();
    } catch (error) {
      this.undoUnsaved(error as Error);
      throw new Error(`The sandbox could not save its data file (${(error as Error).message}); the change was undone.`);
    }
    this.settleWaiters();
  }

  /**
   * Resolves once an applied call is on disk. The calls of one turn of the event loop share one
   * append and one fsync; every few thousand calls the data file is rewritten instead.
   */
  saveOperation(entry: LoggedOperation): Promise<void> {
    if (!this.operationLog) return Promise.resolve();
    this.pendingLines.push(logLine(entry));
    const saved = new Promise<void>((resolve, reject) => this.pendingWaiters.push({ resolve, reject }));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushOperations());
    }
    return saved;
  }

  replaceState(state: SandboxState): void {
    const previous = this.current;
    this.current = { ...state, calls: [] };
    try {
      this.commit();
    } catch (error) {
      this.current = previous;
      throw error;
    }
  }

  reset(seed: Seed): void {
    this.replaceState(seedState(seed));
  }

  /** At close: leaves one data file behind, with nothing to replay. */
  checkpoint(): void {
    if (!this.operationLog || (this.operationLog.records === 0 && this.pendingLines.length === 0)) return;
    try {
      this.commit();
    } catch {
      // Logged by commit(); what the log holds is replayed at the next start.
    }
  }

  private flushOperations(): void {
    this.flushScheduled = false;
    if (this.pendingLines.length === 0 || !this.operationLog) return;
    if (this.operationLog.records + this.pendingLines.length > CHECKPOINT_AFTER_CALLS) {
      try {
        this.commit();
      } catch {
        // commit() told the waiting calls and logged it.
      }
      return;
    }
    try {
      this.operationLog.append(this.pendingLines);
    } catch (error) {
      this.undoUnsaved(error as Error);
      return;
    }
    this.settleWaiters();
  }

  private settleWaiters(): void {
    this.pendingLines = [];
    for (const waiter of this.pendingWaiters.splice(0)) waiter.resolve();
  }

  /** A write failed: back to what the files hold; calls waiting for their line are refused. */
  private undoUnsaved(error: Error): void {
    const calls = this.current.calls;
    const dataFile = this.dataFile!;
    try {
      const onDisk = loadFromDisk(dataFile);
      if (onDisk) this.current = { ...onDisk, calls };
    } catch (reloadError) {
      this.log(`sandbox: could not reload ${dataFile} after a failed write: ${(reloadError as Error).message}`);
    }
    this.log(`sandbox: could not write ${dataFile}: ${error.message}; the unsaved changes were undone`);
    this.pendingLines = [];
    const refusal = new Error(`The sandbox could not save its data (${error.message}); the change was undone.`);
    for (const waiter of this.pendingWaiters.splice(0)) waiter.reject(refusal);
  }
}
