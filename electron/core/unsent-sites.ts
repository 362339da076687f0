// What the folder's marker (storage/marker.ts) says waits to be sent: how many entries, and up to
// MARKER_SITES sites with the fields their queued edits set. Built every few seconds while things
// change; a site's line is kept until its lane or its record moves on (its newest revision grows),
// so during an import only the sites that changed are read again (their edits and records are on
// disk, not in memory).
import type { OutboxStore } from './outbox/store';
import type { SiteRegister } from './sites/register';
import { overlay } from './sites/view';
import { MARKER_SITES, type MarkedSite } from './storage/marker';

export class UnsentSites {
  private lines = new Map<string, { revision: number; site: MarkedSite }>();

  constructor(
    private readonly store: OutboxStore,
    private readonly register: SiteRegister,
  ) {}

  now(): { unsent: number; sites: MarkedSite[] } {
    let unsent = 0;
    const sites: MarkedSite[] = [];
    const lines = new Map<string, { revision: number; site: MarkedSite }>();
    for (const [key, heads] of this.store.laneEntries()) {
      unsent += heads.length;
      const head = heads[0];
      if (!key.startsWith('site:') || head?.kind !== 'site' || sites.length >= MARKER_SITES) continue;
      let revision = this.register.notedRevisionOf(head.localId);
      for (const entry of heads) revision = Math.max(revision, this.store.revisionOf(entry.id));
      const kept = this.lines.get(key);
      const site = kept && kept.revision === revision && revision > 0 ? kept.site : this.read(key);
      if (!site) continue;
      lines.set(key, { revision, site });
      sites.push(site);
    }
    this.lines = lines;
    return { unsent, sites };
  }

  private read(key: string): MarkedSite | undefined {
    const lane = this.store.lane(key);
    const first = lane[0];
    if (first?.kind !== 'site') return undefined;
    const fields: MarkedSite['fields'] = {};
    // As the site view overlays them, so a measurement goes with its position here too.
    for (const entry of lane) if (entry.kind === 'site') overlay(fields, entry);
    const siteId = this.register.get(first.localId)?.siteId ?? first.payload.siteId ?? null;
    return { localId: first.localId, profileId: first.profileId, siteId, create: lane.some((entry) => entry.kind === 'site' && entry.op === 'create'), fields };
  }
}
