// Every site of the active profile in one lean, columnar answer, for the page's first paint: 50,000
// SiteViews as objects are ~18 MB of JSON (each key name repeated 50,000 times, dates as text); as
// columns with the repeating texts (profile, origin, state, group, description) given once it is a
// third of that, and cheaper to build, send and read. unpackSites gives back exactly the SiteViews
// that were packed (test/renderer/site-list.test.ts), so nothing on the page reads anything else.
import type { PinStyle, SyncState } from '../domain';
import type { ProblemView, SiteOrigin, SiteView } from './views';

export const SITE_LIST_FORMAT = 1;

/** Column k of each array is site k, in the order listSites gives them. */
export interface SiteList {
  format: typeof SITE_LIST_FORMAT;
  count: number;
  /** The texts that repeat from site to site, each once; the columns below marked "text" index into it. */
  texts: string[];
  localId: string[];
  siteId: Array<string | null>;
  /** text */
  profileId: number[];
  /** text */
  origin: number[];
  name: string[];
  height: Array<number | null>;
  latitude: Array<number | null>;
  longitude: Array<number | null>;
  /** text */
  description: number[];
  /** text */
  group: number[];
  pinStyle: PinStyle[];
  /** text */
  syncState: number[];
  /** Only the sites with a problem: [site index, problem]. */
  lastError: Array<[number, ProblemView]>;
  queued: number[];
  /** Milliseconds since 1970 (or, for a time that does not come back the same way, the text itself). */
  createdAt: Array<number | string>;
  updatedAt: Array<number | string>;
  revision: number[];
}

/** The lean form of `sites`, in their order. */
export function packSites(sites: readonly SiteView[]): SiteList {
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  const text = (value: string): number => {
    let index = textIndex.get(value);
    if (index === undefined) {
      index = texts.length;
      texts.push(value);
      textIndex.set(value, index);
    }
    return index;
  };
  // Sites saved together share their times (an import's batch, a sync's group commit): each text is read once.
  const times = new Map<string, number | string>();
  const time = (iso: string): number | string => {
    let packed = times.get(iso);
    if (packed === undefined) {
      packed = packTime(iso);
      times.set(iso, packed);
    }
    return packed;
  };
  const n = sites.length;
  const list: SiteList = {
    format: SITE_LIST_FORMAT,
    count: n,
    texts,
    localId: new Array<string>(n),
    siteId: new Array<string | null>(n),
    profileId: new Array<number>(n),
    origin: new Array<number>(n),
    name: new Array<string>(n),
    height: new Array<number | null>(n),
    latitude: new Array<number | null>(n),
    longitude: new Array<number | null>(n),
    description: new Array<number>(n),
    group: new Array<number>(n),
    pinStyle: new Array<PinStyle>(n),
    syncState: new Array<number>(n),
    lastError: [],
    queued: new Array<number>(n),
    createdAt: new Array<number | string>(n),
    updatedAt: new Array<number | string>(n),
    revision: new Array<number>(n),
  };
  for (let index = 0; index < n; index++) {
    const site = sites[index]!;
    list.localId[index] = site.localId;
    list.siteId[index] = site.siteId;
    list.profileId[index] = text(site.profileId);
    list.origin[index] = text(site.origin);
    list.name[index] = site.name;
    list.height[index] = site.height;
    list.latitude[index] = site.latitude;
    list.longitude[index] = site.longitude;
    list.description[index] = text(site.description);
    list.group[index] = text(site.group);
    list.pinStyle[index] = site.pinStyle;
    list.syncState[index] = text(site.syncState);
    if (site.lastError !== null) list.lastError.push([index, site.lastError]);
    list.queued[index] = site.queued;
    list.createdAt[index] = time(site.createdAt);
    list.updatedAt[index] = time(site.updatedAt);
    list.revision[index] = site.revision;
  }
  return list;
}

/** The SiteViews `list` was packed from, in order. */
export function unpackSites(list: SiteList): SiteView[] {
  const { texts } = list;
  const problems = new Map(list.lastError);
  // Many sites share a time: each is turned back into its text once.
  const times = new Map<number | string, string>();
  const time = (packed: number | string): string => {
    let iso = times.get(packed);
    if (iso === undefined) {
      iso = unpackTime(packed);
      times.set(packed, iso);
    }
    return iso;
  };
  const sites: SiteView[] = new Array<SiteView>(list.count);
  for (let k = 0; k < list.count; k++) {
    sites[k] = {
      localId: list.localId[k]!,
      siteId: list.siteId[k]!,
      profileId: texts[list.profileId[k]!]!,
      origin: texts[list.origin[k]!] as SiteOrigin,
      name: list.name[k]!,
      height: list.height[k]!,
      latitude: list.latitude[k]!,
      longitude: list.longitude[k]!,
      description: texts[list.description[k]!]!,
      group: texts[list.group[k]!]!,
      pinStyle: list.pinStyle[k]!,
      syncState: texts[list.syncState[k]!] as SyncState,
      lastError: problems.get(k) ?? null,
      queued: list.queued[k]!,
      createdAt: time(list.createdAt[k]!),
      updatedAt: time(list.updatedAt[k]!),
      revision: list.revision[k]!,
    };
  }
  return sites;
}

function packTime(iso: string): number | string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso ? ms : iso;
}

function unpackTime(time: number | string): string {
  return typeof time === 'number' ? new Date(time).toISOString() : time;
}
