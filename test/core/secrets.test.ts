// Where API keys live. The os-keyring store runs against a real Secret Service (CI starts one with
// dbus-run-session and an unlocked gnome-keyring); without one the keyring tests are skipped with
// the reason in their name — except under CI=true, where a missing keyring is a failure. The
// fallback to session-only is checked in a child process that has no D-Bus session at all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { createOsKeyringStore, probeOsKeyring } from '../../electron/core/profiles/keyring';
import { chooseSecretStore, LayeredSecretStore } from '../../electron/core/profiles/secrets';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { it } from '../support/fixtures';

const SERVICE = `Sitewalk-test-${randomBytes(4).toString('hex')}`;
const probe = await probeOsKeyring(SERVICE);
const missing = probe.ok ? null : probe.reason;
const mustHaveKeyring = process.env.CI === 'true';
const used: string[] = [];

afterAll(async () => {
  if (missing) return;
  const store = createOsKeyringStore(SERVICE);
  for (const profileId of used) await store.delete(profileId).catch(() => undefined);
});

function profileId(): string {
  const id = `p-${randomBytes(4).toString('hex')}`;
  used.push(id);
  return id;
}

if (missing && mustHaveKeyring) {
  describe('os-keyring (CI)', () => {
    it('has a Secret Service to test against', () => {
      throw new Error(`CI=true but no Secret Service is reachable: ${missing}. Run the tests inside dbus-run-session with an unlocked gnome-keyring.`);
    });
  });
}

describe.skipIf(missing !== null)(`os-keyring against the real Secret Service${missing ? ` — SKIPPED: no Secret Service here (${missing})` : ''}`, () => {
  it('stores a key per profile, reads it back, and forgets it on delete', async () => {
    const store = createOsKeyringStore(SERVICE);
    const first = profileId();
    const second = profileId();
    await store.set(first, 'key-one-Ünïcödé');
    await store.set(second, 'key-two');
    expect(store.kind).toBe('os-keyring');
    expect(await store.get(first)).toBe('key-one-Ünïcödé');
    expect(await store.get(second)).toBe('key-two');
    expect(await store.has(first)).toBe(true);
    await store.delete(first);
    expect(await store.get(first)).toBeNull();
    expect(await store.has(first)).toBe(false);
    expect(await store.get(second)).toBe('key-two');
    // Deleting what is not there is not an error.
    await store.delete(first);
  });

  it('keeps the key outside this process: a new store instance finds it', async () => {
    const id = profileId();
    await createOsKeyringStore(SERVICE).set(id, 'persisted-key');
    expect(await createOsKeyringStore(SERVICE).get(id)).toBe('persisted-key');
  });

  it('replaces a key when it is set again', async () => {
    const store = createOsKeyringStore(SERVICE);
    const id = profileId();
    await store.set(id, 'old');
    await store.set(id, 'new');
    expect(await store.get(id)).toBe('new');
  });

  it('is chosen when the keyring works, with nothing given up', async () => {
    const choice = await chooseSecretStore({ service: SERVICE });
    expect(choice.store.kind).toBe('os-keyring');
    expect(choice.fallbackReason).toBeNull();
  });
});

describe('session-only and the fallback', () => {
  it('keeps keys in memory only, per profile', async () => {
    const store = createSessionSecretStore();
    expect(store.kind).toBe('session-only');
    await store.set('a', 'k1');
    expect(await store.get('a')).toBe('k1');
    expect(await store.get('b')).toBeNull();
    await store.delete('a');
    expect(await store.has('a')).toBe(false);
  });

  it('holds a key for this run in front of the real store without writing it there', async () => {
    const base = createSessionSecretStore();
    await base.set('p', 'stored');
    const layered = new LayeredSecretStore(base);
    layered.holdForSession('p', 'from-env');
    expect(await layered.get('p')).toBe('from-env');
    expect(layered.kindOf('p')).toBe('session-only');
    expect(await base.get('p')).toBe('stored');
    layered.releaseSession('p');
    expect(await layered.get('p')).toBe('stored');
  });

  it('falls back to session-only, visibly and with the reason, when there is no keyring', async ({ tempDir }) => {
    const script = join(tempDir, 'choose.mts');
    const module = join(process.cwd(), 'electron/core/profiles/secrets.ts');
    const source = [
      `import { chooseSecretStore } from ${JSON.stringify(module)};`,
      "const choice = await chooseSecretStore({ service: 'Sitewalk-fallback-test' });",
      'process.stdout.write(JSON.stringify({ kind: choice.store.kind, reason: choice.fallbackReason }));',
    ];
    await writeFile(script, `${source.join('\n')}\n`);
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(tempDir, 'no-such-bus')}`, DISPLAY: '' };
    const output = await run(process.execPath, ['--import', 'tsx', script], env);
    const result = JSON.parse(output) as { kind: string; reason: string | null };
    expect(result.kind).toBe('session-only');
    expect(result.reason).toMatch(/No OS keyring is available .*kept for this session only/);
  });
});

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}
