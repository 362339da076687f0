// Whether a process of this machine is still running, by its PID: signal 0 checks without sending
// anything. EPERM means it runs as another user — running all the same.
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
