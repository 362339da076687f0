// The pins of the first load read straight from the site list's columns (shared/contract/site-list.ts):
// position, pin style, state mark and title are all the map needs, so it draws before the page has
// made 50,000 SiteViews, turned their times back into text and indexed them by ID (the store does
// that once the pins are on screen). Each pin is what toPin gives for the site the columns unpack to.
import type { SiteList } from '../../../electron/shared/contract/site-list';
import type { SyncState } from '../../../electron/shared/domain';
import { markFor, siteTitle } from '../shared/format';
import type { Pin } from './pins';

export function pinsFromColumns(list: SiteList): Pin[] {
  const { texts } = list;
  const marks = texts.map((text) => markFor(text as SyncState));
  // siteTitle reads three fields: one object refilled per site rather than one made per site.
  const named = { name: '', siteId: null as string | null, localId: '' };
  const pins: Pin[] = [];
  for (let k = 0; k < list.count; k++) {
    const lat = list.latitude[k];
    const lng = list.longitude[k];
    if (lat === null || lat === undefined || lng === null || lng === undefined) continue;
    named.name = list.name[k]!;
    named.siteId = list.siteId[k]!;
    named.localId = list.localId[k]!;
    pins.push({ id: named.localId, lat, lng, style: list.pinStyle[k]!, mark: marks[list.syncState[k]!]!, title: siteTitle(named) });
  }
  return pins;
}
