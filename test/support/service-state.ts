// What really reached the service: the sandbox's own records, read back over its inspection endpoint
// (/_sandbox/…) and typed with the sandbox's own types, so a test compares the service's state with
// what was queued, imported or reported — plus the account changes tests make there.
import type { CallLogEntry, MailMessage, SandboxMultiMap, SandboxSite, SandboxSubmission } from '../../electron/sandbox/index';

export type { CallLogEntry, MailMessage, SandboxMultiMap, SandboxSite, SandboxSubmission };

/** JSON from the inspection endpoint of the sandbox at `url`; throws with the answer on a non-2xx. */
export async function inspect<T = unknown>(url: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const response = await fetch(`${url}/_sandbox/${path.replace(/^\//, '')}`, {
    method,
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /_sandbox/${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Every site the service holds, of every account. */
export function serviceSites(url: string): Promise<SandboxSite[]> {
  return inspect(url, 'sites');
}

export function serviceSubmissions(url: string): Promise<SandboxSubmission[]> {
  return inspect(url, 'submissions');
}

export function serviceMultiMaps(url: string): Promise<SandboxMultiMap[]> {
  return inspect(url, 'multi-maps');
}

/** The emails the service sent (a reprocess with sendEmail mails every recipient of the account). */
export function serviceMail(url: string): Promise<MailMessage[]> {
  return inspect(url, 'mail');
}

/** Every call the service received, with its outcome (an injected fault included). */
export function serviceCalls(url: string): Promise<CallLogEntry[]> {
  return inspect(url, 'calls');
}

/** Changes an account on the service: calls left, key, recipients… */
export async function patchAccount(url: string, account: string, changes: Record<string, unknown>): Promise<void> {
  await inspect(url, `accounts/${account}`, { method: 'PATCH', body: changes });
}
