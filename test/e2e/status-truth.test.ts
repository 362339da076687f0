// A status that is true (issue 23): with nothing queued the top bar is not the last call's result.
// A proxy's 503 in front of the service shows as "Service not answering" and its recovery as
// "Online" by free re-checks (the app runs with a short check interval here; the default is 20 s),
// and "Sync now" always asks afresh. No API call is spent: the sandbox's call log does not move.
// When Sitewalk itself stops, the page says so within 5 s and holds its buttons back; after a
// restart on the same port, pasting the new address (only #token changes) is enough, without F5.
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { CallLogEntry } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { chooseSandbox, inspect, openSession, startApp, type App, type Session } from './helpers';

/** A loopback port free right now, for an app that must come back on the same address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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

describe('when Sitewalk itself stops', () => {
  test('the page says so within 5 s and holds its buttons back; the new address pasted after a restart takes effect without a reload', async ({ browser, tempDir }) => {
    const dataDir = join(tempDir, 'data');
    await mkdir(dataDir);
    const port = String(await freePort());
    const apps: App[] = [];
    let session: Session | null = null;
    try {
      const first = await startApp(dataDir, ['--port', port]);
      apps.push(first);
      session = await openSession(browser, first);
      const { page } = session;
      await chooseSandbox(page);
      await expect.poll(() => connection(page), { timeout: 30_000 }).toMatch(/Online/);
      const edit = page.getByRole('button', { name: /^Edit\b/ }).first();
      await edit.waitFor();
      expect(await edit.isEnabled()).toBe(true);
      await page.evaluate(() => {
        (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
      });

      await first.stop();
      // Within 5 s: the issue saw "Online" stay, Edit do nothing and Save say "Failed to fetch".
      await expect.poll(() => connection(page), { message: 'the top bar after Sitewalk stopped', timeout: 5_000 }).toMatch(/Sitewalk stopped/);
      await page.getByRole('alert').filter({ hasText: 'Sitewalk has stopped.' }).waitFor({ timeout: 5_000 });
      expect(await edit.isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sync now' }).isDisabled()).toBe(true);
      expect(await page.getByText(/Failed to fetch/).count()).toBe(0);
      await session.screenshot('host-stopped');

      const second = await startApp(dataDir, ['--port', port]);
      apps.push(second);
      expect(new URL(second.url).origin).toBe(new URL(first.url).origin);
      expect(second.token).not.toBe(first.token);
      // The old token is refused by the new run: the page says how to go on.
      await page.getByRole('alert').filter({ hasText: 'Sitewalk was restarted.' }).waitFor({ timeout: 15_000 });
      // Pasting the new address into the same tab changes only the fragment: no reload happens.
      await page.goto(second.url);
      await expect.poll(() => connection(page), { message: 'the top bar after the new address', timeout: 15_000 }).toMatch(/Online/);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      expect(await page.getByRole('alert').filter({ hasText: /Sitewalk (has stopped|was restarted)/ }).count()).toBe(0);
      await expect.poll(() => edit.isEnabled()).toBe(true);
      await edit.click();
      await page.getByRole('button', { name: 'Save' }).first().waitFor();
      expect(session.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    } finally {
      await session?.close();
      for (const app of apps.reverse()) await app.stop();
    }
  });
});
