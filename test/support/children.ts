// Child processes a test starts and may SIGKILL at any moment: whatever is still running when the
// test ends is SIGKILLed by an afterEach, which runs before the fixtures' teardown, so no child is
// left talking to a sandbox that is closing or holding a data folder being removed.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { afterEach } from 'vitest';

export interface Children {
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
}

/** Call at a test file's top level; its `spawn` starts processes that do not outlive their test. */
export function killedAfterEachTest(): Children {
  const running = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
  });
  return {
    spawn(command, args, options) {
      const child = spawn(command, args, options);
      running.add(child);
      child.on('close', () => running.delete(child));
      return child;
    },
  };
}
