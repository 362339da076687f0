// A process that compacts a site register over and over until it is killed, for the test of a crash
// during compaction (register-snapshot.test.ts). Prints "ready" once the register is open and the
// first compaction has begun, "compacted <n>" after each one.
import { systemClock } from '../../electron/core/clock';
import { SiteRegister } from '../../electron/core/sites/register';

const { register } = await SiteRegister.open({ dataDir: process.argv[2]!, clock: systemClock });
process.stdout.write('ready\n');
for (let n = 1; ; n++) {
  await register.compact();
  process.stdout.write(`compacted ${n}\n`);
}
