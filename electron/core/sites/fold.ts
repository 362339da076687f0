// Keeps the register in step with the outbox: a site entry that becomes done is folded into what
// the service is known to hold, inside the transaction that records the result (store.onApplied),
// so a site is never shown synced without its service ID and the two never disagree on disk. Also
// adopts the built-in sandbox's demo sites, so a new user sees them without typing IDs.
import type { OutboxChange } from '../outbox/store';
import type { SiteEntry } from '../outbox/types';
import type { SandboxHandle } from '../profiles/sandbox';
import type { SiteFields, SiteRecord, SiteRegister } from './register';
import { overlay } from './view';

/** Folds entries that just became done into the register, in the transaction that made them done. */
export function foldDone(register: SiteRegister, changes: readonly OutboxChange[], now: number): void {
  const folded = new Map<string, SiteRecord>();
  for (const { entry, previous } of changes) {
    if (entry.kind !== 'site' || entry.state !== 'done' || previous?.state === 'done') continue;
    const record = folded.get(entry.localId) ?? register.get(entry.localId);
    const next = record ? foldEntry(record, entry, now) : null;
    if (next) folded.set(entry.localId, next);
  }
  if (folded.size > 0) register.putNow([...folded.values()]);
}

/** Registers the sandbox account's sites the profile does not know yet (nothing is sent). */
export async function adoptSandboxSites(register: SiteRegister, profileId: string, handle: SandboxHandle, now: number): Promise<SiteRecord[]> {
  const listing = handle.accountSites?.() ?? [];
  const records: SiteRecord[] = [];
  for (const site of listing) {
    if (register.findBySiteId(profileId, site.siteId)) continue;
    const { siteId, ...known } = site;
    records.push({ localId: register.newLocalId(), profileId, siteId, origin: 'existing', known, appliedSeq: 0, createdAt: now, updatedAt: now });
  }
  if (records.length > 0) await register.put(records);
  return records;
}

/** The record with a done entry folded into what the service is known to hold; null if already folded. */
export function foldEntry(record: SiteRecord, entry: SiteEntry, now: number): SiteRecord | null {
  if (entry.seq <= record.appliedSeq) return null;
  const known: SiteFields = { ...record.known };
  // The measurement an edit carried goes into the register with its position (view.ts applyEdit),
  // so it outlives the entry once the outbox's history is dropped.
  overlay(known, entry);
  const siteId = entry.op === 'create' ? (entry.resultSiteId ?? record.siteId) : (record.siteId ?? entry.payload.siteId ?? null);
  const { draft: _draft, ...confirmed } = record;
  return { ...confirmed, known, siteId, appliedSeq: entry.seq, updatedAt: now };
}
