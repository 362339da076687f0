// Where the located sites of the site list are and how their pins look, and nothing else, for the
// page's first paint: its cluster worker builds the index of 50,000 pins from these and the map draws
// them while the page is still fetching and decoding the whole list (megabytes); the list's pins then
// take the drawn ones' place, given their site IDs and titles in place when they have exactly these
// positions, states and styles (renderer/src/map/column-pins.ts, identifyPins). Sites without a
// position are left out, as the map leaves them out; the order is the list's.
// The answer is bytes, not JSON: typed arrays laid end to end, which cross Electron's IPC as
// they are and the browser host's HTTP as one application/octet-stream body. Both ends run on the one
// machine, so the arrays keep its byte order.
import { SYNC_STATES, type SyncState } from '../domain';
import type { SiteList } from './site-list';

export const SITE_POSITIONS_FORMAT = 3;

/** Located sites k = 0…count−1 of the list, in its order: position, state (its place in SYNC_STATES) and pin style. */
export interface SitePositions {
  count: number;
  latitude: Float64Array;
  longitude: Float64Array;
  state: Uint8Array;
  style: Uint8Array;
}

/** The located sites of `list`. */
export function sitePositionsOf(list: SiteList): SitePositions {
  const stateOf = list.texts.map((text) => Math.max(0, SYNC_STATES.indexOf(text as SyncState)));
  let count = 0;
  for (let k = 0; k < list.count; k++) if (list.latitude[k] != null && list.longitude[k] != null) count++;
  const positions: SitePositions = { count, latitude: new Float64Array(count), longitude: new Float64Array(count), state: new Uint8Array(count), style: new Uint8Array(count) };
  if (count === 0) return positions;
  let at = 0;
  for (let k = 0; k < list.count; k++) {
    const lat = list.latitude[k];
    const lng = list.longitude[k];
    if (lat == null || lng == null) continue;
    positions.latitude[at] = lat;
    positions.longitude[at] = lng;
    positions.state[at] = stateOf[list.syncState[k]!] ?? 0;
    positions.style[at] = list.pinStyle[k]!;
    at++;
  }
  return positions;
}

/**
 * format, count, how the coordinates are written, and a spare word: the arrays after them start on an
 * 8-byte boundary; the states and then the styles follow the coordinates, a byte a site each.
 * Coordinates of at most 7 decimals (what the register keeps: validation/rules.ts) go as whole
 * numbers of 10⁻⁷ degrees in 32 bits, 10 bytes a site instead of 18 (500 KB at 50,000); any other
 * coordinate in the list sends them all as doubles.
 */
const HEADER_BYTES = 16;
const SCALE = 1e7;
const AS_DOUBLES = 0;
const AS_SCALED = 1;

/** Whether `value` comes back (===) as a whole number of 10⁻⁷ degrees divided by 10⁷ (-0 as 0: the same place). */
function scalable(value: number): boolean {
  const scaled = Math.round(value * SCALE);
  return Math.abs(scaled) < 2 ** 31 && scaled / SCALE === value;
}

export function encodeSitePositions(positions: SitePositions): Uint8Array {
  const { count, latitude, longitude } = positions;
  const scaled = latitude.every(scalable) && longitude.every(scalable);
  const width = scaled ? 4 : 8;
  const bytes = new Uint8Array(HEADER_BYTES + count * (2 * width + 2));
  new Uint32Array(bytes.buffer, 0, 4).set([SITE_POSITIONS_FORMAT, count, scaled ? AS_SCALED : AS_DOUBLES, 0]);
  if (scaled) {
    const whole = new Int32Array(bytes.buffer, HEADER_BYTES, 2 * count);
    for (let k = 0; k < count; k++) {
      whole[k] = Math.round(latitude[k]! * SCALE);
      whole[count + k] = Math.round(longitude[k]! * SCALE);
    }
  } else {
    new Float64Array(bytes.buffer, HEADER_BYTES, count).set(latitude);
    new Float64Array(bytes.buffer, HEADER_BYTES + count * 8, count).set(longitude);
  }
  bytes.set(positions.state, HEADER_BYTES + count * 2 * width);
  bytes.set(positions.style, HEADER_BYTES + count * (2 * width + 1));
  return bytes;
}

/** The positions `bytes` hold; a throw with a sentence when they are not an answer of this format. */
export function decodeSitePositions(bytes: Uint8Array): SitePositions {
  // A typed array over part of a buffer (Node's pooled Buffers) may start anywhere: views need their alignment.
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const words = own.byteLength >= HEADER_BYTES ? new Uint32Array(own.buffer, own.byteOffset, 4) : null;
  if (!words || words[0] !== SITE_POSITIONS_FORMAT || (words[2] !== AS_DOUBLES && words[2] !== AS_SCALED)) {
    throw new Error('The site positions came in a form this page does not read; reload the page.');
  }
  const count = words[1]!;
  const width = words[2] === AS_SCALED ? 4 : 8;
  if (own.byteLength !== HEADER_BYTES + count * (2 * width + 2)) throw new Error(`The site positions are cut short or too long (${own.byteLength} bytes for ${count} sites).`);
  const start = own.byteOffset + HEADER_BYTES;
  const state = new Uint8Array(own.buffer, start + count * 2 * width, count);
  const style = new Uint8Array(own.buffer, start + count * (2 * width + 1), count);
  if (width === 8) return { count, latitude: new Float64Array(own.buffer, start, count), longitude: new Float64Array(own.buffer, start + count * 8, count), state, style };
  const whole = new Int32Array(own.buffer, start, 2 * count);
  const latitude = new Float64Array(count);
  const longitude = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    latitude[k] = whole[k]! / SCALE;
    longitude[k] = whole[count + k]! / SCALE;
  }
  return { count, latitude, longitude, state, style };
}
