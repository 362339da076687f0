// The pins of the first load read straight from the site list's columns (shared/contract/site-list.ts):
// position, pin style, state mark and title are all the map needs, so it draws before the page has
// made 50,000 SiteViews, turned their times back into text and indexed them by ID (the store does
// that once the pins are on screen). Each pin is what toPin gives for the site the columns unpack to.
// Many sites are drawn before the list has even arrived, from the host's positions answer
// (site-positions.ts: position, state and style of each located site, in the list's order): those pins
// know no site yet, and get their IDs and titles in place when the list comes with the same positions.
import type { SiteList } from '../../../electron/shared/contract/site-list';
import type { SitePositions } from '../../../electron/shared/contract/site-positions';
import { SYNC_STATES, type PinStyle, type SyncState } from '../../../electron/shared/domain';
import { markFor, siteTitle } from '../shared/format';
import { UNNAMED, type Pin } from './pins/types';

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

/** The pins of the host's positions, each standing for the k-th located site of the list to come. */
export function pinsFromPositions(positions: SitePositions): Pin[] {
  const marks = SYNC_STATES.map((state) => markFor(state));
  const pins = new Array<Pin>(positions.count);
  for (let k = 0; k < positions.count; k++) {
    pins[k] = { id: UNNAMED + k, lat: positions.latitude[k]!, lng: positions.longitude[k]!, style: positions.style[k] as PinStyle, mark: marks[positions.state[k]!] ?? 'none', title: '' };
  }
  return pins;
}

/**
 * Gives the pins drawn from positions their sites' IDs and titles, in place, when the list's located
 * sites are exactly those pins (position, mark and style, place by place): true. Otherwise nothing is
 * changed and the list's own pins must take their place: false (a site changed between the answers).
 */
export function identifyPins(pins: readonly Pin[], list: SiteList): boolean {
  const fromList = pinsFromColumns(list);
  if (fromList.length !== pins.length) return false;
  for (let k = 0; k < pins.length; k++) {
    const [drawn, site] = [pins[k]!, fromList[k]!];
    if (drawn.lat !== site.lat || drawn.lng !== site.lng || drawn.mark !== site.mark || drawn.style !== site.style) return false;
  }
  for (let k = 0; k < pins.length; k++) {
    pins[k]!.id = fromList[k]!.id;
    pins[k]!.title = fromList[k]!.title;
  }
  return true;
}
