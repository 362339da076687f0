// The active profile's sites in the page's lean columnar form (shared/contract/site-list.ts), built
// straight from the register: a site with nothing queued and nothing lost is shown exactly as the
// service holds it, so its columns are read from its record without a SiteView made first; only the
// few sites with queued requests go through siteView(). The answer is what packSites(sites.list())
// gives, column for column (test/core/packed-sites.test.ts).
import { SiteListPacker, type SiteList } from '../../shared/contract/site-list';
import type { OutboxEntry } from '../outbox/types';
import type { SiteRecord } from './site-record';
import { siteView } from './view';

export interface PackSource {
  /** The register's sites, every profile, in register order. */
  records: Iterable<SiteRecord>;
  /** How many there are (the columns' length before they are cut to the profile's count). */
  size: number;
  profileId: string;
  /** The outbox's unfinished lanes (site:<localId> or eus:<id>). */
  lanes: Iterable<[string, readonly OutboxEntry[]]>;
  revisionOf: (localId: string) => number;
}

export function packRegister(source: PackSource): SiteList {
  const packer = new SiteListPacker(source.size);
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
  const { profileId } = source;
  for (const record of source.records) {
    if (record.profileId !== profileId) continue;
    const lane = queued.get(record.localId);
    const revision = source.revisionOf(record.localId);
    if (lane !== undefined || record.lost) {
      packer.add(siteView(record, lane ?? [], revision));
      continue;
    }
    // What siteView gives for a site with an empty lane and nothing lost.
    const known = record.known;
    packer.addFields(
      record.localId,
      record.siteId,
      record.profileId,
      record.origin,
      known.name ?? '',
      known.height ?? null,
      known.latitude ?? null,
      known.longitude ?? null,
      known.description ?? '',
      known.group ?? '',
      known.pinStyle ?? 1,
      known.measurement ?? null,
      'synced',
      null,
      0,
      time(record.createdAt),
      time(record.updatedAt),
      revision,
    );
  }
  return packer.finish();
}
