// Loaded into a bench's child process (`node --import tsx --import ./test/bench/die-with-parent.ts
// …`): the child ends when the bench that started it is gone, however the bench ended — a SIGKILL
// runs no exit handler, so without this a sandbox or an app would be left running behind it.
const bench = process.ppid;
const watch = setInterval(() => {
  try {
    process.kill(bench, 0);
  } catch (error) {
    // ESRCH: the bench is gone. EPERM would mean another user's process took the PID: gone too.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH' || (error as NodeJS.ErrnoException).code === 'EPERM') process.exit(1);
  }
}, 500);
// The watch alone never keeps the child alive.
watch.unref();

export {};
