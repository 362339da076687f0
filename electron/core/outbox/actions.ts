// What the user does to the queue: list it, send an entry again, discard it, confirm one that needs
// review, correct one not yet sent, and queue EUS reprocesses. Every state change goes through
// transitions.ts; an action the entry's state does not allow is refused with a sentence.
import { ok, refuse, type BatchIssue, type BatchResult, type Result } from '../../shared/result';
import { parseEusReprocess, parseSiteEdit, type EusReprocessInput, type SiteEditInput } from '../../shared/validation/index';
import type { SiteEdit } from '../service/types';
import type { OutboxHistoryPage } from '../../shared/contract/views';
import type { CoreParts, OutboxEntryView, SitewalkCore } from '../sitewalk-core';
import type { Draft, OutboxStore } from './store';
import * as transitions from './transitions';
import { laneOf, type EntryHead, type OutboxEntry } from './types';
import { DUPLICATE_EMAIL_WINDOW_MS, recentEmails, type RecentEmail } from './recent-email';
import { entryView, standingOf, HISTORY_PAGE, HISTORY_PAGE_MAX, historyCursor, parseHistoryCursor } from './views';

/** Validates an edit of a site whose service ID is not known yet (its create is still queued). */
const PENDING_ID = '0';

export class OutboxActions {
  readonly outbox: SitewalkCore['outbox'];
  /** The first page of history the page loads at start (a scan of every entry: 20+ ms at 50,000),
   * kept until an entry changes (any change moves the store's revision) or the profile does. */
  private firstPage: { profileId: string; limit: number; revision: number; page: ReturnType<OutboxStore['history']> } | null = null;

  /**
   * `sends`: this core sends by itself (the app; autoSync). A core that sends only when asked (the
   * CLI's, whose `sync` alone sends) queues a retried entry and sends nothing.
   */
  constructor(
    private readonly deps: CoreParts,
    private readonly sends = true,
  ) {
    this.outbox = {
      list: (options) =>
        this.deps.store
          .list()
          .filter((entry) => options?.allProfiles || entry.profileId === this.deps.activeId())
          .map((entry) => entryView(entry, this.deps.store.revisionOf(entry.id))),
      unfinished: () => this.deps.store.unfinished(this.deps.activeId()).map((entry) => entryView(entry, this.deps.store.revisionOf(entry.id))),
      unfinishedPage: (pendingLimit) => {
        const { entries, pendingLeftOut } = this.deps.store.unfinishedPage(this.deps.activeId(), pendingLimit);
        return { entries: entries.map((entry) => entryView(entry, this.deps.store.revisionOf(entry.id))), pendingLeftOut };
      },
      history: (query) => this.history(query ?? {}),
      get: (id) => {
        const entry = this.deps.store.get(id);
        return entry ? entryView(entry, this.deps.store.revisionOf(entry.id)) : null;
      },
      standing: (id) => {
        const entry = this.deps.store.glance(id);
        if (!entry) return null;
        const standing = standingOf(entry);
        // A lane goes in order: behind an entry that failed or waits for review, nothing goes until a person acts on it.
        const stop = entry.state === 'pending' ? this.deps.store.laneHeads(laneOf(entry)).find((ahead) => ahead.seq < entry.seq && (ahead.state === 'failed' || ahead.state === 'needs-review')) : undefined;
        if (stop) standing.waitsBehind = stop.id;
        return standing;
      },
      revision: (id) => this.deps.store.revisionOf(id),
      retry: (id) => this.retry(id),
      discard: (id) => this.discard(id),
      resolve: (id, siteId) => this.resolve(id, siteId),
      edit: (id, input) => this.edit(id, input),
    };
  }

  /** A page of the active profile's history; a cursor this core did not give yields an empty page. */
  private history(query: { before?: string; limit?: number }): OutboxHistoryPage {
    const profileId = this.deps.activeId();
    const total = this.deps.store.countsOf(profileId).done;
    const before = query.before === undefined ? undefined : parseHistoryCursor(query.before);
    if (before === null) return { entries: [], next: null, total };
    const limit = Math.min(HISTORY_PAGE_MAX, Math.max(1, Math.floor(query.limit ?? HISTORY_PAGE)));
    const { entries, more } = before === undefined ? this.firstHistoryPage(profileId, limit) : this.deps.store.history(profileId, limit, before);
    const last = entries[entries.length - 1];
    return {
      entries: entries.map((entry) => entryView(entry, this.deps.store.revisionOf(entry.id))),
      next: more && last ? historyCursor(last) : null,
      total,
    };
  }

  private firstHistoryPage(profileId: string, limit: number): ReturnType<OutboxStore['history']> {
    const { store } = this.deps;
    const cached = this.firstPage;
    if (cached && cached.profileId === profileId && cached.limit === limit && cached.revision === store.revisionNow) return cached.page;
    const page = store.history(profileId, limit);
    this.firstPage = { profileId, limit, revision: store.revisionNow, page };
    return page;
  }

  async reprocess(input: EusReprocessInput, options: { force?: boolean } = {}): Promise<Result<OutboxEntryView>> {
    const outcome = await this.reprocessMany([input], options);
    return outcome.ok ? ok(outcome.value[0]!) : { ok: false, issues: outcome.issues.map(({ index: _index, ...issue }) => issue) };
  }

  /**
   * `force` lets every emailing reprocess through the 24-hour guard; `emailAgain` only those of the
   * listed process IDs (the ones a person ticked in the bulk preview after seeing them marked).
   */
  async reprocessMany(inputs: readonly EusReprocessInput[], options: { force?: boolean; emailAgain?: readonly string[] } = {}): Promise<BatchResult<OutboxEntryView>> {
    const issues: BatchIssue[] = [];
    const drafts: Draft[] = [];
    const emailing = new Set<string>();
    const confirmed = new Set(options.emailAgain ?? []);
    const checkedInputs = inputs.map((input) => parseEusReprocess(input));
    const recent = this.recentEmails(checkedInputs.flatMap((checked) => (checked.ok && checked.value.sendEmail ? [checked.value.processId] : [])));
    checkedInputs.forEach((checked, index) => {
      if (!checked.ok) {
        for (const issue of checked.issues) issues.push({ index, ...issue });
        return;
      }
      const { processId, sendEmail } = checked.value;
      if (sendEmail && !options.force && !confirmed.has(processId)) {
        const earlier = emailing.has(processId) ? 'earlier in this batch' : recent.get(processId)?.phrase;
        if (earlier) {
          issues.push({ index, field: 'duplicateEmail', message: `Submission ${processId} already has a reprocess with email ${earlier}: sending another emails its recipients again.` });
          return;
        }
      }
      if (sendEmail) emailing.add(processId);
      drafts.push({ kind: 'reprocess', profileId: this.deps.activeId(), payload: checked.value });
    });
    if (issues.length > 0) return { ok: false, issues };
    const enqueued = await this.deps.store.enqueue(drafts);
    this.deps.engine.kick();
    return { ok: true, value: enqueued.map(({ entry }) => entryView(entry, this.deps.store.revisionOf(entry.id))) };
  }

  /** The submissions among `processIds` with an emailing reprocess waiting, sending, in review or done in the last 24 h. */
  recentEmails(processIds: readonly string[]): Map<string, RecentEmail> {
    if (processIds.length === 0) return new Map();
    const now = this.deps.clock.now();
    const since = now - DUPLICATE_EMAIL_WINDOW_MS;
    // Each submission is a lane of its own: the store reads just those lanes (indexed), never the whole history.
    const entries = [...new Set(processIds)].flatMap((processId) => this.deps.store.laneSince(`eus:${processId}`, since));
    return recentEmails(entries, this.deps.activeId(), now, new Set(processIds));
  }

  private find(id: string): OutboxEntry | Result<never> {
    const entry = this.deps.store.get(typeof id === 'string' ? id.trim() : '');
    if (!entry) return refuse('id', `There is no outbox entry "${id}". Run "sitewalk outbox" to see them.`);
    return entry;
  }

  /** The entry as it is now, after an action. */
  private current(id: string): Result<OutboxEntryView> {
    const entry = this.deps.store.get(id);
    // Discarded while the action was being written (another window, the CLI beside the app).
    if (!entry) return refuse('id', `Entry ${id} was discarded meanwhile.`);
    return ok(entryView(entry, this.deps.store.revisionOf(id)));
  }

  private async retry(id: string): Promise<Result<OutboxEntryView>> {
    const entry = this.find(id);
    if ('ok' in entry) return entry;
    const { store, engine } = this.deps;
    switch (entry.state) {
      case 'done':
        return refuse('id', `Entry ${entry.id} is already done.`);
      case 'sending':
        return refuse('id', `Entry ${entry.id} is being sent right now.`);
      case 'paused':
        await engine.resume(entry.profileId);
        break;
      case 'failed':
      case 'needs-review':
      case 'pending':
        // A retry starts the attempt count over, so a "gave up" entry gets its full set of tries.
        await store.update([transitions.userRetry(entry, this.deps.clock.now())]);
        break;
    }
    if (entry.profileId === this.deps.activeId() && this.sends) {
      engine.start();
      engine.syncNow();
    }
    return this.current(entry.id);
  }

  private async discard(id: string): Promise<Result<{ removed: string[] }>> {
    const entry = this.find(id);
    if ('ok' in entry) return entry;
    const { store, register } = this.deps;
    const refusal = transitions.discardRefusal(entry);
    if (refusal) return refuse('id', refusal);
    const ids = [entry.id];
    let dropSite: string | null = null;
    if (entry.kind === 'site' && entry.op === 'create') {
      const record = register.get(entry.localId);
      const followers = store.lane(laneOf(entry)).filter((other) => other.id !== entry.id);
      if (followers.some((other) => other.state === 'sending')) return refuse('id', 'An edit of this site is being sent; wait for its answer.');
      // Edits behind a discarded create could never be sent: they go with it, and so does the site.
      ids.push(...followers.map((other) => other.id));
      if (record && record.siteId === null) dropSite = record.localId;
    } else if (entry.kind === 'site' && entry.state !== 'needs-review') {
      // An edit queued for a site ID the list did not know (an import's row) made the site; if the
      // service never confirmed anything of it and nothing else is queued for it, it goes with its
      // edit rather than stay as a site with no fields shown "synced". One that may have been
      // applied (needs review) may well exist: it stays.
      const record = register.get(entry.localId);
      const alone = store.lane(laneOf(entry)).every((other) => other.id === entry.id);
      if (record && record.origin === 'imported' && record.appliedSeq === 0 && Object.keys(record.known).length === 0 && alone) dropSite = record.localId;
    }
    const removed = await this.discardTogether(ids, dropSite);
    // Claimed for sending (here or by another Sitewalk) between the question and the write.
    if (removed === null) return refuse('id', `Entry ${entry.id} is being sent right now; wait for its answer.`);
    if (dropSite) this.deps.events.emit('site-removed', { localId: dropSite, revision: register.revisionOf(dropSite) });
    this.deps.engine.kick();
    return ok({ removed: removed.map((item) => item.id) });
  }

  /** Discards asked for in the same turn (a cancelled import's 10,000), waiting to be written together. */
  private discards: Array<{ ids: string[]; dropSite: string | null; done: (removed: EntryHead[] | null) => void; failed: (error: unknown) => void }> = [];

  /**
   * Removes the entries and the unsent site in one transaction, with every other discard asked for
   * in the same turn: one commit for a whole cancelled import rather than one per entry.
   */
  private discardTogether(ids: string[], dropSite: string | null): Promise<EntryHead[] | null> {
    return new Promise((done, failed) => {
      this.discards.push({ ids, dropSite, done, failed });
      if (this.discards.length > 1) return;
      setImmediate(() => {
        const batch = this.discards;
        this.discards = [];
        const { store, register } = this.deps;
        try {
          const results = store.transaction(() =>
            batch.map((one) => {
              // Checked again on the rows as they are now, inside the transaction.
              if (one.ids.some((id) => store.stateOf(id) === 'sending')) return null;
              const gone = store.removeNow(one.ids);
              if (one.dropSite) register.removeNow([one.dropSite]);
              return gone;
            }),
          );
          batch.forEach((one, index) => one.done(results[index]!));
        } catch (error) {
          for (const one of batch) one.failed(error);
        }
      });
    });
  }

  private async resolve(id: string, siteIdInput?: string): Promise<Result<OutboxEntryView>> {
    const entry = this.find(id);
    if ('ok' in entry) return entry;
    if (entry.state !== 'needs-review') {
      return refuse('id', `Entry ${entry.id} is ${entry.state}; only an entry that needs review can be confirmed.`);
    }
    const now = this.deps.clock.now();
    if (entry.kind === 'site' && entry.op === 'create') {
      const siteId = typeof siteIdInput === 'string' ? siteIdInput.trim() : '';
      if (siteId === '') {
        return refuse('siteId', 'Enter the ID the service gave the new site (find the site in the account; the ID ends its address).');
      }
      // The service gives new sites numeric IDs (patterns.ts reads them so from its answers).
      if (!/^\d{1,18}$/.test(siteId)) {
        return refuse('siteId', `"${siteId.slice(0, 40)}" is not a site ID: it is a number, like 100123, at the end of the site's address in the account.`);
      }
      const checked = parseSiteEdit({ ...entry.payload, siteId });
      if (!checked.ok) return { ok: false, issues: checked.issues.filter((issue) => issue.field === 'siteId') };
      const owner = this.deps.register.findBySiteId(entry.profileId, siteId);
      if (owner && owner.localId !== entry.localId) {
        return refuse('siteId', `Site ID ${siteId} already belongs to another site in the list (${owner.localId}).`);
      }
      await this.deps.store.update(transitions.userConfirm(entry, now, { siteId, lane: this.deps.store.lane(laneOf(entry)) }));
    } else {
      await this.deps.store.update(transitions.userConfirm(entry, now));
    }
    this.deps.engine.kick();
    return this.current(entry.id);
  }

  private async edit(id: string, input: SiteEditInput | EusReprocessInput): Promise<Result<OutboxEntryView>> {
    const entry = this.find(id);
    if ('ok' in entry) return entry;
    if (entry.state === 'sending' || entry.state === 'done' || entry.state === 'needs-review') {
      const why =
        entry.state === 'needs-review'
          ? 'it may already have been applied: confirm it or send it again first'
          : entry.state === 'sending'
            ? 'it is being sent right now'
            : 'it is already done';
      return refuse('id', `Entry ${entry.id} cannot be edited: ${why}.`);
    }
    const now = this.deps.clock.now();
    if (entry.kind === 'site') {
      const siteId = entry.payload.siteId;
      const checked = parseSiteEdit({ ...(input as SiteEditInput), siteId: entry.op === 'create' ? undefined : (siteId ?? PENDING_ID) });
      if (!checked.ok) return { ok: false, issues: checked.issues };
      const payload: SiteEdit = { ...checked.value };
      if (siteId === undefined) delete payload.siteId;
      await this.deps.store.update([transitions.userEdit(entry, payload, now)]);
    } else {
      const checked = parseEusReprocess(input as EusReprocessInput);
      if (!checked.ok) return { ok: false, issues: checked.issues };
      await this.deps.store.update([transitions.userEdit(entry, checked.value, now)]);
    }
    if (entry.state === 'paused' && this.deps.store.pauseOf(entry.profileId)) await this.deps.engine.resume(entry.profileId);
    this.deps.engine.kick();
    return this.current(entry.id);
  }
}
