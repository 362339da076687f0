// The active profile's sites in the page's lean columnar form (shared/contract/site-list.ts), built
// straight from the database's rows: a site with nothing queued and nothing lost is shown exactly
// as the service holds it, so its columns are copied from its row without a record or a SiteView
// made first; only the few sites with queued requests (or lost, or measured) go through siteView().
// The answer is what packSites(sites.list()) gives, column for column (test/core/packed-sites.test.ts).
import { SiteListPacker, type SiteList } from '../../shared/contract/site-list';
import type { PinStyle } from '../../shared/domain';
import type { OutboxEntry } from '../outbox/types';
import { rowOf, type RawSiteRow, type SiteRow } from '../storage/sites-table';
import type { SiteRecord } from './site-record';
import { siteView } from './view';

export interface PackSource {
  /** The profile's rows (SITE_COLUMNS order), in register order. */
  rows: Iterable<RawSiteRow>;
  /** How many there may be at most (the columns are made that long, then cut to the count). */
  capacity: number;
  /** The outbox's unfinished lanes (site:<localId> or eus:<id>). */
  lanes: Iterable<[string, readonly OutboxEntry[]]>;
  /** The revision noted for a site beyond its row's (an entry of it changed since); 0 if none. */
  notedRevisionOf: (localId: string) => number;
  /** The record of a row, through the one check of a stored site; undefined for one that cannot be read. */
  read: (row: SiteRow) => SiteRecord | undefined;
  /** Whether a row is known to be unreadable (it is left out). */
  isUnreadable: (localId: string) => boolean;
}

// The raw row's columns (storage/sites-table.ts SITE_COLUMNS).
const LOCAL_ID = 0;
const PROFILE_ID = 1;
const SITE_ID = 2;
const ORIGIN = 3;
const NAME = 4;
const HEIGHT = 5;
const LATITUDE = 6;
const LONGITUDE = 7;
const DESCRIPTION = 8;
const GROUP = 9;
const PIN_STYLE = 10;
const CREATED_AT = 12;
const UPDATED_AT = 13;
const LOST = 14;
const REV = 16;
const MEASUREMENT = 17;

export function packRegister(source: PackSource): SiteList {
  const packer = new SiteListPacker(source.capacity);
  const queued = new Map<string, readonly OutboxEntry[]>();
  for (const [key, lane] of source.lanes) if (key.startsWith('site:') && lane.length > 0) queued.set(key.slice(5), lane);
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
    const lane = queued.get(localId);
    const revision = Math.max(row[REV], source.notedRevisionOf(localId));
    // A site with something queued, lost, or measured goes through the record and its view: its
    // row is checked whole (a measurement's JSON included). The others are checked at open
    // (SitesTable.unreadable) and packed from their columns, as siteView gives them.
    if (lane !== undefined || row[LOST] !== null || row[MEASUREMENT] !== null) {
      const record = source.read(rowOf(row));
      if (record) packer.add(siteView(record, lane ?? [], revision));
      continue;
    }
    packer.addFields(
      localId,
      row[SITE_ID],
      row[PROFILE_ID],
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
