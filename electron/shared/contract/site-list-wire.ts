// The site list as it crosses to the page (listSitesPacked): the columns of site-list.ts with the
// mostly-equal ones sent once. At 50,000 sites most columns say the same thing again and again (one
// profile, one origin, "synced", style 1, nothing queued) or count up (server IDs, revisions, an
// import's heights, a batch's times): each such column goes as runs — value, step, length — or as
// differences. At 50,000 imported sites that is 2.7 MB instead of 5.7 MB, and the page parses a few
// numbers instead of 50,000 texts of digits. Local IDs and names go as they are: joining a shared
// prefix back on costs the page more than the bytes it saves on loopback.
// decodeSiteList gives back exactly the SiteList that was encoded (test/renderer/site-list.test.ts).
import { SITE_LIST_FORMAT, type SiteList } from './site-list';

export const SITE_LIST_WIRE_FORMAT = 3;

/**
 * A column of numbers: `runs` holds [first, step, length] triples (value i of a run is first + step × i),
 * and `other` the entries the runs do not give, [index, value] (a null, a text); or, when runs would
 * not be much shorter, whole numbers as the first and then each one's difference from the one before
 * (`deltas`: the times of sites saved a few milliseconds apart), or else the plain `values`.
 */
export type WireColumn<T> = { runs: number[]; other: Array<[number, T]> } | { deltas: number[] } | { values: T[] };

type Plain = 'format' | 'count' | 'texts' | 'localId' | 'siteId' | 'name' | 'measurement' | 'lastError';
type NumberColumns = Exclude<keyof SiteList, Plain>;

export type SiteListWire = { [K in NumberColumns]: WireColumn<SiteList[K][number]> } & {
  format: typeof SITE_LIST_WIRE_FORMAT;
  count: number;
  texts: string[];
  localId: string[];
  name: string[];
  /** A server ID that is the decimal text of a whole number goes as that number. */
  siteId: WireColumn<string | null>;
  measurement: SiteList['measurement'];
  lastError: SiteList['lastError'];
};

const NUMBER_COLUMNS = ['profileId', 'origin', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle', 'syncState', 'queued', 'createdAt', 'updatedAt', 'revision'] as const satisfies readonly NumberColumns[];

// Digits that come back the same through Number and String, within what a double holds exactly.
const WHOLE_NUMBER_TEXT = /^(0|[1-9]\d{0,14})$/;

export function encodeSiteList(list: SiteList): SiteListWire {
  const siteIds = list.siteId.map((id) => (id !== null && WHOLE_NUMBER_TEXT.test(id) ? Number(id) : id));
  const wire = {
    format: SITE_LIST_WIRE_FORMAT,
    count: list.count,
    texts: list.texts,
    localId: list.localId,
    name: list.name,
    siteId: encodeColumn(siteIds),
    measurement: list.measurement,
    lastError: list.lastError,
  } as Partial<SiteListWire>;
  for (const key of NUMBER_COLUMNS) (wire as Record<string, unknown>)[key] = encodeColumn<unknown>(list[key]);
  return wire as SiteListWire;
}

export function decodeSiteList(wire: SiteListWire): SiteList {
  if (wire.format !== SITE_LIST_WIRE_FORMAT) throw new Error(`The site list came in a form this page does not read (${String(wire.format)}); reload the page.`);
  const n = wire.count;
  const siteId = decodeColumn(wire.siteId, n) as Array<string | number | null>;
  for (let k = 0; k < n; k++) if (typeof siteId[k] === 'number') siteId[k] = String(siteId[k]);
  const list = {
    format: SITE_LIST_FORMAT,
    count: n,
    texts: wire.texts,
    localId: wire.localId,
    name: wire.name,
    siteId: siteId as Array<string | null>,
    measurement: wire.measurement,
    lastError: wire.lastError,
  } as Partial<SiteList>;
  for (const key of NUMBER_COLUMNS) (list as Record<string, unknown>)[key] = decodeColumn<unknown>(wire[key], n);
  return list as SiteList;
}

/** Runs of equal steps over the numbers of `values`; anything else (null, a text) rides along in `other`. */
function encodeColumn<T>(values: readonly T[]): WireColumn<T> {
  const runs: number[] = [];
  const other: Array<[number, T]> = [];
  let first = 0;
  let step = 0;
  let length = 0;
  const close = () => {
    if (length > 0) runs.push(first, step, length);
  };
  for (let k = 0; k < values.length; k++) {
    const value = values[k]!;
    if (typeof value !== 'number' || Object.is(value, -0)) {
      // Not a number (or one JSON would not give back): any run may carry its place.
      other.push([k, value]);
      if (length === 0) [first, step] = [0, 0];
      length++;
      continue;
    }
    if (length === 0) {
      [first, step, length] = [value, 0, 1];
    } else if (length === 1 && Number.isFinite(value - first) && first + (value - first) === value) {
      step = value - first;
      length = 2;
    } else if (first + step * length === value) {
      length++;
    } else {
      close();
      [first, step, length] = [value, 0, 1];
    }
  }
  close();
  // A run is three numbers: worth it only where the values repeat or count up for a while.
  if (runs.length <= values.length / 2) return { runs, other };
  if (other.length === 0 && values.every((value) => Number.isSafeInteger(value))) {
    const numbers = values as readonly number[];
    const deltas = numbers.map((value, k) => (k === 0 ? value : value - numbers[k - 1]!));
    if (deltas.every((delta) => Number.isSafeInteger(delta))) return { deltas };
  }
  return { values: [...values] };
}

function decodeColumn<T>(column: WireColumn<T>, count: number): Array<T | number> {
  if ('values' in column) return column.values;
  if ('deltas' in column) {
    const numbers = new Array<number>(count);
    let value = 0;
    for (let k = 0; k < count; k++) numbers[k] = value += column.deltas[k]!;
    return numbers;
  }
  const values = new Array<T | number>(count);
  const { runs } = column;
  let k = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const first = runs[r]!;
    const step = runs[r + 1]!;
    const end = k + runs[r + 2]!;
    for (let i = 0; k < end; i++, k++) values[k] = first + step * i;
  }
  for (const [index, value] of column.other) values[index] = value;
  return values;
}
