// Cores as the tests open them: keys held for the session only (these tests are not about the OS
// keyring) and the built-in sandbox started the way the hosts start it — `sandboxStarter` is the one
// place the tests choose it. `useService` points a core at a service as a user does: a profile of
// its own, made active, with its key.
import type { CoreOptions, SitewalkCore } from '../../electron/core/open-core';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { builtInSandbox } from '../../electron/sandbox/builtin';
import type { ProfileView } from '../../electron/shared/contract/index';
import type { Binding } from '../../electron/shared/domain';

export type SandboxStarter = Exclude<CoreOptions['sandbox'], false | undefined>;

/** How a test core starts its built-in sandbox (the Sandbox profile's service). */
export const sandboxStarter: SandboxStarter = builtInSandbox;

/** Retries and probes within tens of milliseconds, 20 s per call: a sync settles inside a test, even on a loaded machine. */
export const QUICK_SYNC = {
  retry: { baseMs: 20, capMs: 200, maxAttempts: 50 },
  probe: { baseMs: 20, capMs: 200 },
  timeoutMs: 20_000,
} satisfies Partial<CoreOptions>;

/** The options every test core is opened with, below what the test asks for. */
export function testCoreOptions(options: Partial<CoreOptions> & Pick<CoreOptions, 'dataDir'>): CoreOptions {
  return { secretStore: createSessionSecretStore(), sandbox: sandboxStarter, ...options };
}

export interface ServiceChoice {
  /** The profile's name; a profile of that name already there is used again (default Field). */
  name?: string;
  binding?: Binding;
  /** Default: the sandbox's demo account. */
  account?: string;
  /** Default: the demo account's key; null leaves the key as it is. */
  key?: string | null;
  /** Hold the key for this session only, rather than in the core's key store (default true). */
  sessionOnly?: boolean;
}

/** Makes a profile for the service at `baseUrl` the active one, with its key; returns it. */
export async function useService(core: SitewalkCore, baseUrl: string, choice: ServiceChoice = {}): Promise<ProfileView> {
  const name = choice.name ?? 'Field';
  let profile = await core.profiles.get(name);
  if (!profile) {
    const added = await core.profiles.add({ name, baseUrl, account: choice.account ?? '10001', binding: choice.binding ?? 'http-post' });
    if (!added.ok) throw new Error(`the profile was refused: ${JSON.stringify(added.issues)}`);
    profile = added.value;
  }
  const used = await core.profiles.use(profile.id);
  if (!used.ok) throw new Error(`the profile could not be made active: ${JSON.stringify(used.issues)}`);
  if (choice.key === null) return used.value;
  const keyed = await core.profiles.setKey(profile.id, choice.key ?? 'sandbox-demo-key', { sessionOnly: choice.sessionOnly ?? true });
  if (!keyed.ok) throw new Error(`the key was refused: ${JSON.stringify(keyed.issues)}`);
  return keyed.value;
}
