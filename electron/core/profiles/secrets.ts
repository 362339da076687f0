// Which secret store this machine offers outside Electron: the OS keyring when it works now, else
// memory for this session, with the reason as a value the UI shows. The contract every store keeps
// is in secret-store.ts, which the implementations (keyring.ts, session.ts) import instead of this
// file: choosing among them does not make a circle with them.
import { createOsKeyringStore, probeOsKeyring } from './keyring';
import type { SecretStoreChoice } from './secret-store';
import { createSessionSecretStore } from './session';

export { LayeredSecretStore, type SecretStore, type SecretStoreChoice, type SecretStoreKind } from './secret-store';

export interface ChooseOptions {
  /** Try the OS keyring first (default true). */
  preferOsKeyring?: boolean;
  /** Keyring service name (default "Sitewalk"); tests use their own. */
  service?: string;
}

/**
 * The best store this machine offers outside Electron: the OS keyring when a round trip through it
 * works now, else session-only memory — with the reason, so the fallback is visible.
 */
export async function chooseSecretStore(options: ChooseOptions = {}): Promise<SecretStoreChoice> {
  const service = options.service ?? KEYRING_SERVICE;
  if (options.preferOsKeyring === false) {
    return { store: createSessionSecretStore(), fallbackReason: 'Keys are kept for this session only, as asked.' };
  }
  const probe = await probeOsKeyring(service).catch((error: unknown) => ({ ok: false as const, reason: error instanceof Error ? error.message : String(error) }));
  if (probe.ok) return { store: createOsKeyringStore(service), fallbackReason: null };
  return {
    store: createSessionSecretStore(),
    fallbackReason: `No OS keyring is available (${probe.reason}); API keys are kept for this session only and must be entered again next time.`,
  };
}

export const KEYRING_SERVICE = 'Sitewalk';
