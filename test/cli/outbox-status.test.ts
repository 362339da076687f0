// What `sitewalk outbox` says of the queue, and what it leaves alone: paused entries counted as
// paused, not queued; no connection state in its JSON, since the command never asks the service; an
// entry retried out of a pause without the pause's note, and sent by `sync` only, not by the retry;
// a quota pause kept by a run that sets SITEWALK_KEY. Run as a user runs it (test/support/cli.ts),
// on a temp data folder and a sandbox on loopback whose account has no API calls left.
import { expect } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { it } from '../support/fixtures';

const KEY = { SITEWALK_KEY: 'sandbox-demo-key' };
const run = sitewalkInTempHome();

async function setCallsLeft(url: string, callsLeft: number): Promise<void> {
  const response = await fetch(`${url}/_sandbox/accounts/10001`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callsLeft }) });
  expect(response.ok).toBe(true);
}

async function callCount(url: string): Promise<number> {
  return ((await (await fetch(`${url}/_sandbox/calls`)).json()) as unknown[]).length;
}

type Entry = { id: string; state: string; problem: { message: string } | null };

/** A data folder on `url` with one create paused for want of API calls and one queued after it. */
async function pausedFolder(url: string, dir: string): Promise<{ sitewalk: (args: string[], env?: Record<string, string>) => ReturnType<typeof run>; paused: Entry }> {
  const sitewalk = (args: string[], env: Record<string, string> = {}) => run([...args, '--data-dir', dir], { env });
  expect((await sitewalk(['profile', 'add', 'Field', '--base-url', url, '--account', '10001'])).code).toBe(0);
  expect((await sitewalk(['profile', 'use', 'Field'])).code).toBe(0);
  expect((await sitewalk(['site', 'add', '--lat=45', '--lon=-93', '--height=30', '--name=North'])).code).toBe(0);
  await setCallsLeft(url, 0);
  expect((await sitewalk(['sync', '--until-settled'], KEY)).code).toBe(4);
  expect((await sitewalk(['site', 'add', '--lat=46', '--lon=-93', '--height=30', '--name=South'])).code).toBe(0);
  const entries = (await sitewalk(['outbox', '--json'])).json.entries as Entry[];
  return { sitewalk, paused: entries.find((entry) => entry.state === 'paused')! };
}

it('counts paused entries as paused and leaves the connection, which it never checks, out of its JSON', { timeout: 60_000 }, async ({ sandbox, tempDir }) => {
  const { sitewalk } = await pausedFolder(sandbox.url, tempDir);
  const listed = await sitewalk(['outbox']);
  expect(listed.stderr).toMatch(/^1 queued, 1 paused, 0 waiting for you; paused: .*No API calls left/m);
  const json = (await sitewalk(['outbox', '--json'])).json as { status: Record<string, unknown> };
  expect(json.status).toMatchObject({ pendingCount: 2, queuedCount: 1, pausedCount: 1, attentionCount: 0, paused: { reason: 'quota' } });
  for (const untrue of ['connection', 'revision', 'online', 'syncing']) expect(json.status).not.toHaveProperty(untrue);
});

it('retries a paused entry without its pause note, and sends nothing until `sync`', { timeout: 60_000 }, async ({ sandbox, tempDir }) => {
  const { sitewalk, paused } = await pausedFolder(sandbox.url, tempDir);
  await setCallsLeft(sandbox.url, 1000);
  const calls = await callCount(sandbox.url);
  const retried = await sitewalk(['outbox', 'retry', paused.id, '--json'], KEY);
  expect(retried.code, retried.stderr).toBe(0);
  expect(retried.json).toMatchObject({ ok: true, entry: { id: paused.id, state: 'pending', problem: null } });
  const after = await sitewalk(['outbox']);
  expect(after.stdout).not.toMatch(/No API calls left/);
  expect(after.stderr).toMatch(/^2 queued, 0 waiting for you\.$/m);
  expect(await callCount(sandbox.url)).toBe(calls);
  expect((await sitewalk(['sync', '--until-settled'], KEY)).code).toBe(0);
});

it('keeps a quota pause through a run that sets SITEWALK_KEY: a key adds no API calls', { timeout: 60_000 }, async ({ sandbox, tempDir }) => {
  const { sitewalk, paused } = await pausedFolder(sandbox.url, tempDir);
  expect((await sitewalk(['outbox'], KEY)).code).toBe(0);
  const entries = (await sitewalk(['outbox', '--json'], KEY)).json as { entries: Entry[]; status: { paused: unknown } };
  expect(entries.entries.find((entry) => entry.id === paused.id)).toMatchObject({ state: 'paused' });
  expect(entries.status.paused).toMatchObject({ reason: 'quota' });
});
