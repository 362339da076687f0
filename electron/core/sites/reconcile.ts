// Keeps the register in step with the outbox, which is the source of truth: a site entry that
// becomes done is folded into what the service is known to hold (in the same turn as the outbox
// changed in memory, so a site is never shown synced without its service ID), and at open the
// register is repaired after a crash between the two writes. Also adopts the built-in sandbox's
// demo sites, so a new user sees them without typing IDs.
import type { OutboxChange, OutboxStore } from '../outbox/store';
import { recoverDone } from '../outbox/transitions';
import { laneOf, type OutboxEntry, type SiteEntry } from '../outbox/types';
import type { SandboxHandle } from '../profiles/sandbox';
import type { SiteFields, SiteRecord, SiteRegister } from './register';
import { overlay } from './view';

const LOST_CREATE =
  'The request that creates this site is missing from the outbox (its file was deleted, emptied or damaged), so it may or may not have reached the service. Check the account: add the site by its ID if it is there, or save it again to send it.';

export class RegisterReconciler {
  constructor(
    private readonly store: OutboxStore,
    private readonly register: SiteRegister,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Folds entries that just became done into the register (store.onApplied: before they are on disk). */
  foldDone(changes: readonly OutboxChange[]): void {
    const folded = new Map<string, SiteRecord>();
    for (const { entry, previous } of changes) {
      if (entry.kind !== 'site' || entry.state !== 'done' || previous?.state === 'done') continue;
      const record = folded.get(entry.localId) ?? this.register.get(entry.localId);
      const next = record ? foldDone(record, entry, this.now()) : null;
      if (next) folded.set(entry.localId, next);
    }
    // The register's own write may land before or after the outbox's; reconcile() repairs either order.
    if (folded.size > 0) this.register.put([...folded.values()]).catch(this.onError);
  }

  /**
   * Makes the register agree with the outbox after a crash between their writes, and says what a
   * damaged outbox lost (its file deleted, emptied or cut short): nothing is resent by mistake and
   * nothing shows as synced that may not be. `hasProfile` tells whether a profile still exists.
   */
  async reconcile(hasProfile: (profileId: string) => boolean): Promise<string[]> {
    const said: string[] = [];
    const recovered = await this.recoverDoneEntries();
    if (recovered > 0) {
      said.push(`The outbox file lost the result of ${recovered} request(s) the site list had already recorded as done; they are done again and will not be sent twice.`);
    }
    const changed = new Map<string, SiteRecord>();
    for (const entry of this.store.list()) {
      if (entry.kind !== 'site') continue;
      let record = changed.get(entry.localId) ?? this.register.get(entry.localId);
      if (!record) {
        record = {
          localId: entry.localId,
          profileId: entry.profileId,
          siteId: entry.op === 'edit' ? (entry.payload.siteId ?? null) : null,
          origin: entry.op === 'create' ? 'created' : 'imported',
          known: {},
          appliedSeq: 0,
          createdAt: entry.createdAt,
          updatedAt: entry.updatedAt,
        };
        changed.set(entry.localId, record);
      }
      if (entry.state === 'done') {
        const next = foldDone(record, entry, entry.updatedAt);
        if (next) changed.set(entry.localId, next);
      }
    }
    // A site created here that has no request in the outbox and no service ID: the request was lost.
    const lost: SiteRecord[] = [];
    for (const record of this.register.list()) {
      const current = changed.get(record.localId) ?? record;
      if (current.origin !== 'created' || current.siteId !== null || current.lost) continue;
      if (this.store.lane(`site:${current.localId}`).length > 0) continue;
      changed.set(current.localId, { ...current, lost: LOST_CREATE });
      lost.push(current);
    }
    if (changed.size > 0) await this.register.put([...changed.values()]);

    const highest = this.register.list().reduce((max, record) => Math.max(max, record.appliedSeq), 0);
    if (highest >= this.store.nextSequence) {
      said.push(
        `The outbox file (outbox.journal) is missing, empty or cut short: the site list has seen requests up to #${highest}, the outbox only up to #${this.store.nextSequence - 1}. ` +
        (lost.length > 0 ? `${lost.length} new site(s) whose request was lost are marked for review.` : 'Check the Outbox for requests you expected to see.'),
      );
    } else if (lost.length > 0) {
      said.push(`${lost.length} new site(s) have no request in the outbox (it was lost or discarded mid-way) and are marked for review.`);
    }
    const orphans = new Map<string, number>();
    for (const entry of this.store.list()) {
      if (entry.state !== 'done' && !hasProfile(entry.profileId)) orphans.set(entry.profileId, (orphans.get(entry.profileId) ?? 0) + 1);
    }
    for (const [profileId, count] of orphans) {
      said.push(
        `${count} queued request(s) belong to the profile "${profileId}", which Sitewalk no longer has (profiles.json may be missing or damaged): they are kept and not sent. Restore profiles.json from a backup to send them.`,
      );
    }
    return said;
  }

  /**
   * An entry the register has already folded as done (appliedSeq at or past it) but which the
   * outbox shows unfinished lost its 'done' record: it is done, and never sent again. Run first for
   * entries left 'sending' (a crash between the register's write and the outbox's, which is no
   * damage: the answer had come), then by reconcile() for the rest (which is).
   */
  async recoverDoneEntries(which: (entry: OutboxEntry) => boolean = () => true): Promise<number> {
    const recovered = [];
    let count = 0;
    for (const entry of this.store.list()) {
      if (entry.kind !== 'site' || entry.state === 'done' || !which(entry)) continue;
      const record = this.register.get(entry.localId);
      if (!record || record.appliedSeq < entry.seq) continue;
      const siteId = entry.op === 'create' ? record.siteId : null;
      count++;
      recovered.push(...recoverDone(entry, this.now(), siteId ? { siteId, lane: this.store.lane(laneOf(entry)) } : undefined));
    }
    if (recovered.length > 0) await this.store.update(recovered);
    return count;
  }

  /** Registers the sandbox account's sites the profile does not know yet (nothing is sent). */
  async adoptSandboxSites(profileId: string, handle: SandboxHandle): Promise<SiteRecord[]> {
    const listing = handle.accountSites?.() ?? [];
    const now = this.now();
    const records: SiteRecord[] = [];
    for (const site of listing) {
      if (this.register.findBySiteId(profileId, site.siteId)) continue;
      const { siteId, ...known } = site;
      records.push({ localId: this.register.newLocalId(), profileId, siteId, origin: 'existing', known, appliedSeq: 0, createdAt: now, updatedAt: now });
    }
    if (records.length > 0) await this.register.put(records);
    return records;
  }
}

/** The record with a done entry folded into what the service is known to hold; null if already folded. */
function foldDone(record: SiteRecord, entry: SiteEntry, now: number): SiteRecord | null {
  if (entry.seq <= record.appliedSeq) return null;
  const known: SiteFields = { ...record.known };
  overlay(known, entry);
  const siteId = entry.op === 'create' ? (entry.resultSiteId ?? record.siteId) : (record.siteId ?? entry.payload.siteId ?? null);
  const { draft: _draft, ...confirmed } = record;
  return { ...confirmed, known, siteId, appliedSeq: entry.seq, updatedAt: now };
}
