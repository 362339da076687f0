// What opening a data folder does when its database is not the one its marker remembers (the file
// missing, set aside as unreadable, an older copy, its WAL deleted): the sites that had unsent
// changes are marked for review (re-created from the marker when they are gone), so none is shown
// as synced with an old value and none silently disappears, and one sentence says what happened.
import type { SiteRecord } from '../sites/site-record';
import type { SitewalkDb } from './database';
import type { Marker } from './marker';
import { SitesTable } from './sites-table';

const LOST_CREATE =
  'The request that creates this site is missing from the outbox (the database was damaged or replaced), so it may or may not have reached the service. Check the account: add the site by its ID if it is there, or save it again to send it.';
const LOST_EDIT =
  'A change queued for this site is missing from the outbox (the database was damaged or replaced), so it may or may not have reached the service. Check the site on the account and save it again to send the change.';

/** Marks the marker's unsent sites that have nothing queued any more for review; returns how many. */
export function markLostSites(db: SitewalkDb, marker: Marker, now: number): number {
  const sites = new SitesTable(db);
  const queued = db.sql.prepare<[string], number>("SELECT count(*) FROM outbox WHERE lane = ? AND state <> 'done'").pluck();
  let marked = 0;
  db.write(() => {
    for (const site of marker.sites) {
      if ((queued.get(`site:${site.localId}`) ?? 0) > 0) continue;
      const existing = sites.get(site.localId);
      const record: SiteRecord = existing
        ? { ...existing, lost: site.create && existing.siteId === null ? LOST_CREATE : LOST_EDIT, draft: { ...existing.draft, ...site.fields }, updatedAt: now }
        : {
            localId: site.localId,
            profileId: site.profileId,
            siteId: site.siteId,
            origin: site.create ? 'created' : 'imported',
            known: {},
            draft: site.fields,
            lost: site.create ? LOST_CREATE : LOST_EDIT,
            appliedSeq: 0,
            createdAt: now,
            updatedAt: now,
          };
      sites.put(record, db.stamp());
      marked++;
    }
  });
  return marked;
}

/** The sentence for the status: what happened to the database, what it held unsent, what to do. */
export function damageSentence(what: string, marker: Marker | null, marked: number): string {
  if (!marker) return `${what} Sitewalk does not know what it held (the folder's record of it is missing too). Check the Outbox and the site list for changes you expected to see.`;
  const unsent = marker.unsent > 0 ? ` It held ${marker.unsent} request(s) not yet sent.` : ' It held no request that was not yet sent.';
  const review = marked > 0 ? ` ${marked} site(s) whose change was not sent are marked for review: check them on the account and save them again to send them.` : '';
  const unnamed = marker.unsent > marker.sites.length ? ' Some of the unsent requests could not be named (too many to keep a record of each); check the Outbox.' : '';
  return `${what}${unsent}${review}${unnamed}`;
}
