// The active profile's sites in the page's lean columnar form (shared/contract/site-list.ts), built
// straight from the database's rows: a site with nothing queued and nothing lost is shown exactly
// as the service holds it, so its columns are copied from its row without a record or a SiteView
// made first; only the few sites with queued requests (or lost, or measured) go through siteView().
// The answer is what packSites(sites.list()) gives, column for column (test/core/packed-sites.test.ts).
import { SiteListPacker, type SiteList } from '../../shared/contract/site-list';
import type { PinStyle } from '../../shared/domain';
import type { EntryHead, OutboxEntry } from '../outbox/types';
import type { ListRow } from '../storage/sites-table';
import type { SiteRecord } from './site-record';
import { siteView } from './view';

export interface PackSource {
  profileId: string;
  /** The profile's sites, in register order. */
  rows: Iterable<ListRow>;
  /** How many there may be at most (the columns are made that long, then cut to the count). */
  capacity: number;
  /** The outbox's unfinished lanes (site:<localId> or eus:<id>), as the heads of their entries. */
  lanes: Iterable<[string, readonly EntryHead[]]>;
  /** A lane's entries whole (their edits read), for a site with something queued. */
  lane: (key: string) => readonly OutboxEntry[];
  /** The revision noted for a site beyond its row's (an entry of it changed since); 0 if none. */
  notedRevisionOf: (localId: string) => number;
  /** A site's whole record, through the one check of a stored site; undefined for one that cannot be read. */
  record: (localId: string) => SiteRecord | undefined;
  /** Whether a row is known to be unreadable (it is left out). */
  isUnreadable: (localId: string) => boolean;
}

// The columns of a ListRow (storage/sites-table.ts).
const LOCAL_ID = 0;
const SITE_ID = 1;
const ORIGIN = 2;
const NAME = 3;
const HEIGHT = 4;
const LATITUDE = 5;
const LONGITUDE = 6;
const DESCRIPTION = 7;
const GROUP = 8;
const PIN_STYLE = 9;
const CREATED_AT = 10;
const UPDATED_AT = 11;
const REV = 12;
const WHOLE = 13;

export function packRegister(source: PackSource): SiteList {
  const { profileId } = source;
  const packer = new SiteListPacker(source.capacity);
  const queued = new Set<string>();
  for (const [key, lane] of source.lanes) if (key.startsWith('site:') && lane.length > 0) queued.add(key.slice(5));
  // Sites saved together share their times: each is formatted and packed once (as siteView then
  // packSites would: the text of the milliseconds, then packed).
  const times = new Map<number, number | string>();
  const time = (ms: number): number | string => {
    let packed = times.get(ms);
    if (packed === undefined) {
      packed = packer.time(new Date(ms).toISOString());
      times.set(ms, packed);
    }
    return packed;
  };
  for (const row of source.rows) {
    const localId = row[LOCAL_ID];
    if (source.isUnreadable(localId)) continue;
    const lane = queued.has(localId) ? source.lane(`site:${localId}`) : undefined;
    const revision = Math.max(row[REV], source.notedRevisionOf(localId));
    // A site with something queued, lost, or measured goes through its whole record and its view
    // (its measurement's JSON checked on the way). The others are checked at open
    // (SitesTable.unreadable) and packed from their columns, as siteView gives them.
    if (lane !== undefined || row[WHOLE] === 1) {
      const record = source.record(localId);
      if (record) packer.add(siteView(record, lane ?? [], revision));
      continue;
    }
    packer.addFields(
      localId,
      row[SITE_ID],
      profileId,
      row[ORIGIN] as SiteRecord['origin'],
      row[NAME] ?? '',
      row[HEIGHT],
      row[LATITUDE],
      row[LONGITUDE],
      row[DESCRIPTION] ?? '',
      row[GROUP] ?? '',
      (row[PIN_STYLE] ?? 1) as PinStyle,
      null,
      'synced',
      null,
      0,
      time(row[CREATED_AT]),
      time(row[UPDATED_AT]),
      revision,
    );
  }
  return packer.finish();
}
