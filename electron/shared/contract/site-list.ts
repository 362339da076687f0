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
  const list: SiteList = {
    format: SITE_LIST_FORMAT,
    count: sites.length,
    texts,
    localId: [],
    siteId: [],
    profileId: [],
    origin: [],
    name: [],
    height: [],
    latitude: [],
    longitude: [],
    description: [],
    group: [],
    pinStyle: [],
    syncState: [],
    lastError: [],
    queued: [],
    createdAt: [],
    updatedAt: [],
    revision: [],
  };
  sites.forEach((site, index) => {
    list.localId.push(site.localId);
    list.siteId.push(site.siteId);
    list.profileId.push(text(site.profileId));
    list.origin.push(text(site.origin));
    list.name.push(site.name);
    list.height.push(site.height);
    list.latitude.push(site.latitude);
    list.longitude.push(site.longitude);
    list.description.push(text(site.description));
    list.group.push(text(site.group));
    list.pinStyle.push(site.pinStyle);
    list.syncState.push(text(site.syncState));
    if (site.lastError !== null) list.lastError.push([index, site.lastError]);
    list.queued.push(site.queued);
    list.createdAt.push(packTime(site.createdAt));
    list.updatedAt.push(packTime(site.updatedAt));
    list.revision.push(site.revision);
  });
  return list;
}

/** The SiteViews `list` was packed from, in order. */
export function unpackSites(list: SiteList): SiteView[] {
  const { texts } = list;
  const problems = new Map(list.lastError);
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
      createdAt: unpackTime(list.createdAt[k]!),
      updatedAt: unpackTime(list.updatedAt[k]!),
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
