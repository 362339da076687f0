// A large first load's cluster index, asked of the worker the moment the site list arrives (the page's
// boot calls this), while the map's own code is still loading and making the pins: the map's first
// build of the same pins takes the answer (cluster-client.ts, takeEarly). The pins are those
// map/column-pins.ts makes: the sites with a position, in the list's order, with the same marks.
import type { SiteList } from '../../../../electron/shared/contract/site-list';
import type { SyncState } from '../../../../electron/shared/domain';
import { markFor } from '../../shared/format';
import { askEarly } from './cluster-client';
import { CLUSTER_DEFAULTS, MARKS, OFF_THREAD_FROM } from './cluster-protocol';

export function indexEarly(list: SiteList): void {
  let count = 0;
  for (let k = 0; k < list.count; k++) if (list.latitude[k] != null && list.longitude[k] != null) count++;
  if (count < OFF_THREAD_FROM) return;
  const markOf = list.texts.map((text) => Math.max(0, MARKS.indexOf(markFor(text as SyncState))));
  const positions = { lat: new Float64Array(count), lng: new Float64Array(count), marks: new Uint8Array(count) };
  let at = 0;
  for (let k = 0; k < list.count; k++) {
    const lat = list.latitude[k];
    const lng = list.longitude[k];
    if (lat == null || lng == null) continue;
    positions.lat[at] = lat;
    positions.lng[at] = lng;
    positions.marks[at] = markOf[list.syncState[k]!] ?? 0;
    at++;
  }
  askEarly(positions, CLUSTER_DEFAULTS);
}
