// A status that is true (issue 23): with nothing queued the top bar is not the last call's result.
// A proxy's 503 in front of the service shows as "Service not answering" and its recovery as
// "Online" by free re-checks (the app runs with a short check interval here; the default is 20 s),
// and "Sync now" always asks afresh. No API call is spent: the sandbox's call log does not move.
import type { Page } from 'playwright';
import type { CallLogEntry } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';

async function setFaults(base: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${base}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(faults) });
  if (!response.ok) throw new Error(`sandbox faults: HTTP ${response.status} ${await response.text()}`);
}

async function connection(page: Page): Promise<string> {
  return (await page.getByTestId('connection').textContent().catch(() => null)) ?? '(no connection status shown)';
}

describe('the connection status with nothing queued', () => {
  test.override('appArgs', ['--check-every', '0.5']);

  test('a 503 in front of the service shows "Service not answering", and its recovery "Online", without a call spent', async ({ page, session, sandboxUrl: base }) => {
    await expect.poll(() => connection(page), { timeout: 30_000 }).toMatch(/Online/);
    await page.getByTestId('pending-count').getByText('0 waiting').waitFor();
    const calls = (await inspect<CallLogEntry[]>(base, 'calls')).length;

    await setFaults(base, { proxy503Rate: 1 });
    await expect.poll(() => connection(page), { message: 'the top bar under a 503', timeout: 15_000 }).toMatch(/Service not answering/);
    await session.screenshot('status-503-empty-queue');
    await setFaults(base, {});
    await expect.poll(() => connection(page), { message: 'the top bar after recovery', timeout: 15_000 }).toMatch(/Online/);
    expect((await inspect<CallLogEntry[]>(base, 'calls')).length).toBe(calls);
    expect(session.errors).toEqual([]);
  });
});

describe('"Sync now"', () => {
  // An hour between checks: only "Sync now" can change what the top bar says here.
  test.override('appArgs', ['--check-every', '3600']);

  test('re-checks the service with nothing queued, both ways', async ({ page, session, sandboxUrl: base }) => {
    await expect.poll(() => connection(page), { timeout: 30_000 }).toMatch(/Online/);
    await setFaults(base, { proxy503Rate: 1 });
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => connection(page), { message: 'after Sync now under a 503', timeout: 15_000 }).toMatch(/Service not answering/);
    await setFaults(base, {});
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => connection(page), { message: 'after Sync now, recovered', timeout: 15_000 }).toMatch(/Online/);
    expect(session.errors).toEqual([]);
  });
});
