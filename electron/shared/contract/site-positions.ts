// Where the located sites of the site list are, and nothing else, for the page's first paint: its
// cluster worker builds the index of 50,000 pins from these while the page is still fetching and
// decoding the whole list (megabytes), and the map takes that index only if the list's pins have
// exactly these positions and states (renderer/src/map/pins/cluster-client.ts, takeEarly). Sites
// without a position are left out, as the map leaves them out; the order is the list's.
// The answer is bytes, not JSON: three typed arrays laid end to end, which cross Electron's IPC as
// they are and the browser host's HTTP as one application/octet-stream body. Both ends run on the one
// machine, so the arrays keep its byte order.
import { SYNC_STATES, type SyncState } from '../domain';
import type { SiteList } from './site-list';

export const SITE_POSITIONS_FORMAT = 1;

/** Located sites k = 0…count−1 of the list, in its order: position and state (its place in SYNC_STATES). */
export interface SitePositions {
  count: number;
  latitude: Float64Array;
  longitude: Float64Array;
  state: Uint8Array;
}

/** format, count: two 32-bit words, so the Float64Arrays after them start on an 8-byte boundary. */
const HEADER_BYTES = 8;

/** The located sites of `list`. */
export function sitePositionsOf(list: SiteList): SitePositions {
  const stateOf = list.texts.map((text) => Math.max(0, SYNC_STATES.indexOf(text as SyncState)));
  let count = 0;
  for (let k = 0; k < list.count; k++) if (list.latitude[k] != null && list.longitude[k] != null) count++;
  const positions: SitePositions = { count, latitude: new Float64Array(count), longitude: new Float64Array(count), state: new Uint8Array(count) };
  if (count === 0) return positions;
  let at = 0;
  for (let k = 0; k < list.count; k++) {
    const lat = list.latitude[k];
    const lng = list.longitude[k];
    if (lat == null || lng == null) continue;
    positions.latitude[at] = lat;
    positions.longitude[at] = lng;
    positions.state[at] = stateOf[list.syncState[k]!] ?? 0;
    at++;
  }
  return positions;
}

export function encodeSitePositions(positions: SitePositions): Uint8Array {
  const { count } = positions;
  const bytes = new Uint8Array(HEADER_BYTES + count * 17);
  const words = new Uint32Array(bytes.buffer, 0, 2);
  words[0] = SITE_POSITIONS_FORMAT;
  words[1] = count;
  new Float64Array(bytes.buffer, HEADER_BYTES, count).set(positions.latitude);
  new Float64Array(bytes.buffer, HEADER_BYTES + count * 8, count).set(positions.longitude);
  bytes.set(positions.state, HEADER_BYTES + count * 16);
  return bytes;
}

/** The positions `bytes` hold; a throw with a sentence when they are not an answer of this format. */
export function decodeSitePositions(bytes: Uint8Array): SitePositions {
  // A typed array over part of a buffer (Node's pooled Buffers) may start anywhere: views need their alignment.
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const words = own.byteLength >= HEADER_BYTES ? new Uint32Array(own.buffer, own.byteOffset, 2) : null;
  if (!words || words[0] !== SITE_POSITIONS_FORMAT) throw new Error('The site positions came in a form this page does not read; reload the page.');
  const count = words[1]!;
  if (own.byteLength !== HEADER_BYTES + count * 17) throw new Error(`The site positions are cut short or too long (${own.byteLength} bytes for ${count} sites).`);
  const start = own.byteOffset + HEADER_BYTES;
  return {
    count,
    latitude: new Float64Array(own.buffer, start, count),
    longitude: new Float64Array(own.buffer, start + count * 8, count),
    state: new Uint8Array(own.buffer, start + count * 16, count),
  };
}
