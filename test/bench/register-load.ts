// Register load as an app start does it: in a fresh Node process, so the heap a benchmark run has
// built up (50,000 pins, 100,000 placemarks…) does not add its garbage collections to the figure.
// `registerLoad(dataDir)` runs this file as a child; the child opens the register five times and
// prints the median and the number of sites as one line of JSON.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { systemClock } from '../../electron/core/clock';
import { SiteRegister } from '../../electron/core/sites/register';

const OPENS = 5;

export interface RegisterLoad {
  /** The median of five opens, ms. */
  ms: number;
  sites: number;
}

/** Opens the register of `dataDir` five times in a fresh process; the median time and its size. */
export async function registerLoad(dataDir: string): Promise<RegisterLoad> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), dataDir], { maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as RegisterLoad;
}

async function measure(dataDir: string): Promise<RegisterLoad> {
  const times: number[] = [];
  let sites = 0;
  for (let i = 0; i < OPENS; i++) {
    const started = performance.now();
    const { register } = await SiteRegister.open({ dataDir, clock: systemClock });
    times.push(performance.now() - started);
    sites = register.size;
    await register.close();
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(OPENS / 2)]!, sites };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: register-load.ts DATA_DIR');
  process.stdout.write(`${JSON.stringify(await measure(dataDir))}\n`);
}
