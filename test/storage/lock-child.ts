// A process that contends for data-folder locks on command, for the lock race tests. It reads lines
// on stdin: "lock <dir>" tries to take the folder and answers "held <pid>", "busy <holder pid>" or
// "error <message>"; "release" gives back the lock it holds and answers "released". It prints "ready"
// once loaded, so the parent can send "lock" to every child at the same instant.
import { createInterface } from 'node:readline';
import { DataDirBusyError, lockDataDir, type DataDirLock } from '../../electron/core/storage/lock';

let held: DataDirLock | null = null;

createInterface({ input: process.stdin }).on('line', (line) => {
  void (async () => {
    if (line.startsWith('lock ')) {
      try {
        held = await lockDataDir(line.slice(5));
        process.stdout.write(`held ${process.pid}\n`);
      } catch (error) {
        if (error instanceof DataDirBusyError) process.stdout.write(`busy ${error.pid}\n`);
        else process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
      }
    } else if (line === 'release') {
      await held?.release();
      held = null;
      process.stdout.write('released\n');
    }
  })();
});
process.stdout.write('ready\n');
