// The site service: the active profile's sites as shown (register overlaid with the queued edits),
// and saving them. A save is validated with the same schema as the form, then queued in the outbox
// and registered in one transaction. A create gets a temporary local ID; edits behind it wait for its ID.
import { refuse, type BatchIssue, type BatchResult, type Result } from '../../shared/result';
import { parseSiteEdit, type SiteEditInput } from '../../shared/validation/index';
import type { SiteDraft } from '../outbox/store';
import type { SiteEntry } from '../outbox/types';
import { entryView } from '../outbox/views';
import type { SiteEdit } from '../service/types';
import type { CoreParts, SavedSite, SitewalkCore } from '../sitewalk-core';
import type { SiteFields, SiteRecord } from './site-record';
import { applyEdit, baseFields, overlay, siteView, type SiteView } from './view';
import type { SiteList } from '../../shared/contract/site-list';
import { packRegister } from './packed';

/** Validates an edit of a site whose service ID is not known yet (its create is still queued). */
const PENDING_ID = '0';

type SiteSave = SiteEditInput & { localId?: string };

export class SiteService {
  readonly sites: SitewalkCore['sites'];
  /** The last packed list and what it was built from: the profile and both stores' revisions. */
  private packed: { profileId: string; register: number; store: number; list: SiteList } | null = null;

  constructor(private readonly deps: CoreParts) {
    this.sites = {
      list: () => this.deps.register.list(this.deps.activeId()).map((record) => this.viewOf(record)),
      listPacked: () => this.listPacked(),
      get: (id) => {
        const record = this.find(id);
        return record ? this.viewOf(record) : null;
      },
      revision: (localId) => this.deps.register.revisionOf(localId),
      save: async (input) => {
        const outcome = await this.saveMany([input]);
        return outcome.ok ? { ok: true, value: outcome.value[0]! } : { ok: false, issues: outcome.issues.map(({ index: _index, ...issue }) => issue) };
      },
      saveMany: (inputs) => this.saveMany(inputs),
      addExisting: (siteId, fields) => this.addExisting(siteId, fields ?? {}),
    };
  }

  /** The site as shown: what the service holds overlaid with its unfinished entries. */
  viewOf(record: SiteRecord): SiteView {
    return siteView(record, this.deps.store.lane(`site:${record.localId}`), this.deps.register.revisionOf(record.localId));
  }

  /** packSites(sites.list()), built from the register directly, and again only once something changed. */
  private listPacked(): SiteList {
    const { register, store } = this.deps;
    const profileId = this.deps.activeId();
    const cached = this.packed;
    if (cached && cached.profileId === profileId && cached.register === register.revisionNow && cached.store === store.revisionNow) return cached.list;
    // The queued sites' entries, their edits read in one query rather than one lookup an entry.
    const lanes = store.unfinishedLanes();
    const list = packRegister({
      profileId,
      rows: register.listRowsOf(profileId),
      capacity: register.size,
      lanes: store.laneEntries(),
      lane: (key) => lanes.get(key) ?? [],
      notedRevisionOf: (localId) => register.notedRevisionOf(localId),
      record: (localId) => register.get(localId),
      isUnreadable: (localId) => register.isUnreadable(localId),
    });
    this.packed = { profileId, register: register.revisionNow, store: store.revisionNow, list };
    return list;
  }

  /** By local ID or service site ID, in the active profile. */
  private find(id: string): SiteRecord | undefined {
    const text = id.trim();
    const { register } = this.deps;
    const byLocal = register.get(text);
    if (byLocal && byLocal.profileId === this.deps.activeId()) return byLocal;
    return register.findBySiteId(this.deps.activeId(), text);
  }

  private async saveMany(inputs: readonly SiteSave[]): Promise<BatchResult<SavedSite>> {
    const { store, register } = this.deps;
    const profileId = this.deps.activeId();
    const now = this.deps.clock.now();
    const issues: BatchIssue[] = [];
    const drafts: SiteDraft[] = [];
    const newRecords = new Map<string, SiteRecord>();
    const newBySiteId = new Map<string, SiteRecord>();
    /** Sites this batch makes: every entry of theirs is one this write returns. */
    const made = new Set<string>();
    /** Whether a create is queued for a local site (in the outbox, or earlier in this batch). */
    const createQueued = new Set<string>();

    inputs.forEach((input, index) => {
      if (typeof input !== 'object' || input === null) {
        issues.push({ index, field: '', message: 'The site is missing.' });
        return;
      }
      const localIdText = typeof input.localId === 'string' ? input.localId.trim() : '';
      const siteIdText = typeof input.siteId === 'string' ? input.siteId.trim() : input.siteId === undefined || input.siteId === null ? '' : String(input.siteId).trim();
      let record: SiteRecord | undefined;
      if (localIdText) {
        record = newRecords.get(localIdText) ?? register.get(localIdText);
        if (!record || record.profileId !== profileId) {
          issues.push({ index, field: 'localId', message: `There is no site with the local ID "${localIdText}" in this profile.` });
          return;
        }
        if (siteIdText && record.siteId && siteIdText !== record.siteId) {
          issues.push({ index, field: 'siteId', message: `The site ${localIdText} has the service ID ${record.siteId}, not ${siteIdText}.` });
          return;
        }
      } else if (siteIdText) {
        record = newBySiteId.get(siteIdText) ?? register.findBySiteId(profileId, siteIdText);
      }

      const current = record ? this.currentFields(record, drafts) : null;
      const { localId: _localId, ...given } = input;
      // An edit may leave the height out when the site's height is known: the wire always needs one.
      if (isBlank(given.height) && current?.height !== undefined) given.height = current.height;

      const knownSiteId = record?.siteId ?? (siteIdText || null);
      const hasCreate = record ? createQueued.has(record.localId) || this.hasUnfinishedCreate(record.localId) : false;
      const op: 'create' | 'edit' = knownSiteId !== null || hasCreate ? 'edit' : 'create';
      if (op === 'create' && record && current) {
        // Re-creating a local site whose create is gone: keep its position unless a new one is given.
        if (isBlank(given.latitude) && current.latitude !== undefined) given.latitude = current.latitude;
        if (isBlank(given.longitude) && current.longitude !== undefined) given.longitude = current.longitude;
      }
      given.siteId = op === 'edit' ? (knownSiteId ?? PENDING_ID) : undefined;
      const checked = parseSiteEdit(given);
      if (!checked.ok) {
        for (const issue of checked.issues) issues.push({ index, ...issue });
        return;
      }
      // The parse made a new object: no copy needed, only the placeholder ID taken out.
      const payload: SiteEdit = knownSiteId === null && checked.value.siteId !== undefined ? withoutSiteId(checked.value) : checked.value;

      if (!record) {
        record = {
          localId: register.newLocalId(),
          profileId,
          siteId: knownSiteId,
          origin: op === 'create' ? 'created' : 'imported',
          known: {},
          draft: fieldsOf(payload),
          appliedSeq: 0,
          createdAt: now,
          updatedAt: now,
        };
        // A local ID must not repeat within the batch either.
        while (newRecords.has(record.localId)) record.localId = register.newLocalId();
        newRecords.set(record.localId, record);
        made.add(record.localId);
        if (knownSiteId) newBySiteId.set(knownSiteId, record);
      }
      if (op === 'create') createQueued.add(record.localId);
      drafts.push({ kind: 'site', profileId, localId: record.localId, op, payload });
    });

    if (issues.length > 0) return { ok: false, issues };
    // A site whose lost request is sent again (or edited) is no longer lost.
    for (const draft of drafts) {
      const record = newRecords.get(draft.localId) ?? register.get(draft.localId);
      if (record?.lost) {
        const { lost: _lost, ...found } = record;
        newRecords.set(record.localId, found);
      }
    }
    // The queued requests and the register's new records: one transaction, on disk together or not at all.
    const enqueued = this.deps.store.transaction(() => {
      const queued = store.enqueueNow(drafts);
      register.putNow([...newRecords.values()]);
      return queued;
    });
    // The user may have discarded the site (its create, and this change merged into it) while the
    // change was being written: then nothing of it is queued any more, and the answer says so.
    // Each site is read from the database once (a new one's record is the one just written).
    const records = new Map<string, SiteRecord | undefined>(newRecords);
    const recordOf = (localId: string): SiteRecord | undefined => {
      if (!records.has(localId)) records.set(localId, register.get(localId));
      return records.get(localId);
    };
    const gone = enqueued.findIndex(({ entry }) => !recordOf((entry as SiteEntry).localId) || !store.glance(entry.id));
    if (gone >= 0) return { ok: false, issues: [{ index: gone, field: 'localId', message: 'The site was discarded while this change was being saved; nothing of it is queued.' }] };
    // Each entry as this write left it (a later draft merged into an earlier one of the batch wins):
    // the write returned them whole, so none is read back.
    const written = new Map(enqueued.map(({ entry }) => [entry.id, entry]));
    const madeLanes = new Map<string, SiteEntry[]>();
    for (const entry of written.values()) {
      if (entry.kind !== 'site' || !made.has(entry.localId)) continue;
      const lane = madeLanes.get(entry.localId);
      if (lane) lane.push(entry);
      else madeLanes.set(entry.localId, [entry]);
    }
    const saved: SavedSite[] = enqueued.map(({ entry, coalesced }) => {
      const record = recordOf((entry as SiteEntry).localId)!;
      const lane = madeLanes.get(record.localId);
      const site = lane ? siteView(record, lane, register.revisionOf(record.localId)) : this.viewOf(record);
      return { site, entry: entryView(written.get(entry.id)!, store.revisionOf(entry.id)), coalesced };
    });
    // The 'site' events were told once the transaction committed (outbox-events.ts relays every site
    // the queued entries touch): telling them again here built and sent 10,000 views twice.
    this.deps.engine.kick();
    return { ok: true, value: saved };
  }

  /** The site's fields as shown (known + queued), including drafts earlier in the same batch. */
  private currentFields(record: SiteRecord, drafts: readonly SiteDraft[]): SiteFields {
    const fields = baseFields(record);
    for (const entry of this.deps.store.lane(`site:${record.localId}`)) if (entry.kind === 'site') overlay(fields, entry);
    for (const draft of drafts) {
      if (draft.localId === record.localId) overlay(fields, { payload: draft.payload } as SiteEntry);
    }
    return fields;
  }

  private hasUnfinishedCreate(localId: string): boolean {
    return this.deps.store.laneHeads(`site:${localId}`).some((entry) => entry.kind === 'site' && entry.op === 'create');
  }

  private async addExisting(siteIdInput: string, fields: Omit<SiteEditInput, 'siteId'>): Promise<Result<SiteView>> {
    const { register } = this.deps;
    const profileId = this.deps.activeId();
    const siteId = typeof siteIdInput === 'string' ? siteIdInput.trim() : '';
    if (siteId === '') return refuse('siteId', 'Enter the site\'s ID: it is at the end of the site\'s address in the account\'s web interface.');
    // The shared schema checks each field; height is optional here because nothing is sent.
    const checked = parseSiteEdit({ ...fields, siteId, height: isBlank(fields.height) ? 0 : fields.height });
    if (!checked.ok) return { ok: false, issues: checked.issues };
    const known: SiteFields = {};
    const value = checked.value;
    if (!isBlank(fields.height)) known.height = value.height;
    for (const name of ['name', 'latitude', 'longitude', 'description', 'group', 'pinStyle'] as const) {
      if (value[name] !== undefined) (known as Record<string, unknown>)[name] = value[name];
    }
    if (value.measurement) known.measurement = value.measurement;
    const now = this.deps.clock.now();
    const existing = register.findBySiteId(profileId, value.siteId!);
    const record: SiteRecord = existing
      ? { ...withoutLost(existing), known: withEdit(existing.known, known), updatedAt: now }
      : { localId: register.newLocalId(), profileId, siteId: value.siteId!, origin: 'existing', known, appliedSeq: 0, createdAt: now, updatedAt: now };
    await register.put([record]);
    const view = this.viewOf(record);
    this.deps.events.emit('site', view);
    return { ok: true, value: view };
  }
}

function fieldsOf(edit: SiteEdit): SiteFields {
  const { siteId: _siteId, ...fields } = edit;
  return fields;
}

function withoutSiteId(edit: SiteEdit): SiteEdit {
  const { siteId: _siteId, ...rest } = edit;
  return rest;
}

function withEdit(fields: SiteFields, edit: SiteFields): SiteFields {
  const next = { ...fields };
  applyEdit(next, edit);
  return next;
}

function withoutLost(record: SiteRecord): SiteRecord {
  const { lost: _lost, ...rest } = record;
  return rest;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
