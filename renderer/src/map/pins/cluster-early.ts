// A large first load's cluster index, asked of the worker before the map has its pins: the map's first
// build of the same pins takes the answer (cluster-client.ts, takeEarly, which compares the pins). The
// page's boot asks the host for the located sites' positions beside the site list (a sixth of its
// bytes) and hands them to the worker the moment they arrive, so the index is built while the list is
// still coming and being decoded; a host without that answer has the index asked when the list lands.
// Either way the pins are those map/column-pins.ts makes: the sites with a position, in the list's
// order, with the same marks. A site changed between the two answers makes them differ: the map then
// refuses the early index and asks for its own pins' (never a stale cluster).
import type { SitewalkApi } from '../../../../electron/shared/contract/methods';
import type { SiteList } from '../../../../electron/shared/contract/site-list';
import { decodeSitePositions, sitePositionsOf, type SitePositions } from '../../../../electron/shared/contract/site-positions';
import { SYNC_STATES } from '../../../../electron/shared/domain';
import { markFor } from '../../shared/format';
import { marked } from '../../shared/load-timing';
import { askEarly, earlyAsked, workerClient } from './cluster-client';
import { CLUSTER_DEFAULTS, MARKS, OFF_THREAD_FROM, type Positions } from './cluster-protocol';

/** A sync state's place in SYNC_STATES → its pin mark's place in MARKS. */
const MARK_OF_STATE = Uint8Array.from(SYNC_STATES, (state) => Math.max(0, MARKS.indexOf(markFor(state))));

/** The host's positions as the worker reads pins: the same arrays, each state as its pin mark. */
export function workerPositions(positions: SitePositions): Positions {
  const marks = new Uint8Array(positions.count);
  for (let k = 0; k < positions.count; k++) marks[k] = MARK_OF_STATE[positions.state[k]!] ?? 0;
  return { lat: positions.latitude, lng: positions.longitude, marks };
}

/**
 * Asks the host where the sites are; when there are enough to be clustered off the page's thread, the
 * worker (app/boot.ts started it) builds from them and `heard` has them, to draw their pins before the
 * list has arrived.
 */
export function indexFromPositions(api: SitewalkApi, heard: (positions: SitePositions) => void): void {
  if (typeof api.sitePositions !== 'function' || !workerClient()) return;
  api
    .sitePositions(OFF_THREAD_FROM)
    .then((bytes) => {
      marked('positions-received');
      const positions = decodeSitePositions(bytes);
      if (positions.count < OFF_THREAD_FROM) return;
      askEarly(workerPositions(positions), CLUSTER_DEFAULTS);
      heard(positions);
    })
    // No positions (an older host, a refusal, bytes of another format): the index is asked when the list
    // arrives, as without them.
    .catch(() => undefined);
}

/** The index of the list's pins, asked as the list arrives (the page's boot calls this) unless one was asked already. */
export function indexEarly(list: SiteList): void {
  if (earlyAsked()) return;
  // The same located sites, in the same order, as the host's positions answer holds.
  const positions = sitePositionsOf(list);
  if (positions.count >= OFF_THREAD_FROM) askEarly(workerPositions(positions), CLUSTER_DEFAULTS);
}
