// The optional data file: read once at start, rewritten after every change by write-to-temp, fsync
// and rename, so a crash leaves either the old or the new state and never half of one. A file that
// is not a valid sandbox state stops the start with a clear error and is never overwritten.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseState, persistentView, StateError, type SandboxState } from './state';

/** The state in the file, or null when there is no file yet. */
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

/** Serialises the state for the file (without this run's call log). */
export function serializeState(state: SandboxState): string {
  return `${JSON.stringify(persistentView(state), null, 1)}\n`;
}

/** Writes atomically: a temp file beside the target, flushed to disk, then renamed over it. */
export function writeStateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
