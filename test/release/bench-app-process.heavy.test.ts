// A benchmark ended mid-run leaves no app behind: the app it started (its own process, for its own
// memory figures) stops when the bench is killed — by SIGKILL too, which runs no handler in the
// bench — and on Ctrl-C or SIGTERM. Heavy: each case starts the real app through tsx.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished } from 'vitest';
import { killedAfterEachTest } from '../support/children';
import { it } from '../support/fixtures';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const children = killedAfterEachTest();

/** Whether a process is running (a zombie left for its new parent to reap has ended). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A bench that has started an app on `dataDir` and holds it: its process, and the app's process ID. */
async function benchHoldingAnApp(dataDir: string) {
  const bench = children.spawn(process.execPath, ['--import', 'tsx', 'test/bench/app-process.ts', '--hold', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  bench.stderr!.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const appPid = await new Promise<number>((resolve, reject) => {
    let out = '';
    bench.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^app (\d+) /m.exec(out);
      if (match) resolve(Number(match[1]));
    });
    bench.once('exit', (code, signal) => reject(new Error(`the bench ended (${signal ?? code}) before its app started:\n${err}`)));
  });
  // Whatever happens below, no app outlives the test.
  onTestFinished(() => {
    try {
      process.kill(appPid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  });
  return { bench, appPid };
}

describe('a benchmark ended while its app runs', () => {
  it.for(['SIGKILL', 'SIGINT', 'SIGTERM'] as const)('stops the app when the bench is ended by %s', { timeout: 120_000 }, async (signal, { tempDir }) => {
    const { bench, appPid } = await benchHoldingAnApp(tempDir);
    expect(running(appPid)).toBe(true);
    const benchEnded = new Promise((resolve) => bench.once('exit', resolve));
    bench.kill(signal);
    await benchEnded;
    await expect.poll(() => running(appPid), { timeout: 60_000, interval: 200, message: `the app (${appPid}) stopped after the bench got ${signal}` }).toBe(false);
  });
});
