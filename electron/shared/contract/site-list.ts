// Every site of the active profile in one lean, columnar answer, for the page's first paint: 50,000
// SiteViews as objects are ~18 MB of JSON (each key name repeated 50,000 times, dates as text); as
// columns with the repeating texts (profile, origin, state, group, description) given once it is a
// third of that, and cheaper to build, send and read. unpackSites gives back exactly the SiteViews
// that were packed (test/renderer/site-list.test.ts), so nothing on the page reads anything else.
import type { PinStyle, SyncState } from '../domain';
import type { SiteMeasurement } from '../validation/measurement';
import type { ProblemView, SiteOrigin, SiteView } from './views';

export const SITE_LIST_FORMAT = 2;

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
  /** Only the sites whose position was measured by a receiver: [site index, measurement]. */
  measurement: Array<[number, SiteMeasurement]>;
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
  const packer = new SiteListPacker(sites.length);
  for (const site of sites) packer.add(site);
  return packer.finish();
}

/**
 * Builds a SiteList one site at a time: `add` takes a SiteView, `addFields` the same values without
 * a view object first (the core packs its sites with nothing queued straight from the register), and
 * both give the same columns and the same texts in the same order as packSites.
 */
export class SiteListPacker {
  private readonly list: SiteList;
  private readonly textIndex = new Map<string, number>();
  // Sites saved together share their times (an import's batch, a sync's group commit): each text is read once.
  private readonly times = new Map<string, number | string>();
  private n = 0;

  /** capacity: how many sites at most (the columns are made that long, then cut to the count). */
  constructor(capacity: number) {
    this.list = {
      format: SITE_LIST_FORMAT,
      count: 0,
      texts: [],
      localId: new Array<string>(capacity),
      siteId: new Array<string | null>(capacity),
      profileId: new Array<number>(capacity),
      origin: new Array<number>(capacity),
      name: new Array<string>(capacity),
      height: new Array<number | null>(capacity),
      latitude: new Array<number | null>(capacity),
      longitude: new Array<number | null>(capacity),
      description: new Array<number>(capacity),
      group: new Array<number>(capacity),
      pinStyle: new Array<PinStyle>(capacity),
      measurement: [],
      syncState: new Array<number>(capacity),
      lastError: [],
      queued: new Array<number>(capacity),
      createdAt: new Array<number | string>(capacity),
      updatedAt: new Array<number | string>(capacity),
      revision: new Array<number>(capacity),
    };
  }

  /** The index of a repeating text in `texts`, added on first use. */
  text(value: string): number {
    let index = this.textIndex.get(value);
    if (index === undefined) {
      index = this.list.texts.length;
      this.list.texts.push(value);
      this.textIndex.set(value, index);
    }
    return index;
  }

  /** A time as packed: its milliseconds when they give back the same text, else the text. */
  time(iso: string): number | string {
    let packed = this.times.get(iso);
    if (packed === undefined) {
      packed = packTime(iso);
      this.times.set(iso, packed);
    }
    return packed;
  }

  add(site: SiteView): void {
    this.addFields(
      site.localId,
      site.siteId,
      site.profileId,
      site.origin,
      site.name,
      site.height,
      site.latitude,
      site.longitude,
      site.description,
      site.group,
      site.pinStyle,
      site.measurement,
      site.syncState,
      site.lastError,
      site.queued,
      this.time(site.createdAt),
      this.time(site.updatedAt),
      site.revision,
    );
  }

  /** A site's values as a SiteView has them; the times already packed (time()). */
  addFields(
    localId: string,
    siteId: string | null,
    profileId: string,
    origin: SiteOrigin,
    name: string,
    height: number | null,
    latitude: number | null,
    longitude: number | null,
    description: string,
    group: string,
    pinStyle: PinStyle,
    measurement: SiteMeasurement | null,
    syncState: SyncState,
    lastError: ProblemView | null,
    queued: number,
    createdAt: number | string,
    updatedAt: number | string,
    revision: number,
  ): void {
    const list = this.list;
    const index = this.n++;
    list.localId[index] = localId;
    list.siteId[index] = siteId;
    list.profileId[index] = this.text(profileId);
    list.origin[index] = this.text(origin);
    list.name[index] = name;
    list.height[index] = height;
    list.latitude[index] = latitude;
    list.longitude[index] = longitude;
    list.description[index] = this.text(description);
    list.group[index] = this.text(group);
    list.pinStyle[index] = pinStyle;
    if (measurement !== null) list.measurement.push([index, measurement]);
    list.syncState[index] = this.text(syncState);
    if (lastError !== null) list.lastError.push([index, lastError]);
    list.queued[index] = queued;
    list.createdAt[index] = createdAt;
    list.updatedAt[index] = updatedAt;
    list.revision[index] = revision;
  }

  /** The list of the sites added, in order. */
  finish(): SiteList {
    const list = this.list;
    list.count = this.n;
    for (const column of [list.localId, list.siteId, list.profileId, list.origin, list.name, list.height, list.latitude, list.longitude, list.description, list.group, list.pinStyle, list.syncState, list.queued, list.createdAt, list.updatedAt, list.revision]) {
      if (column.length !== this.n) column.length = this.n;
    }
    return list;
  }
}

/** The SiteViews `list` was packed from, in order. */
export function unpackSites(list: SiteList): SiteView[] {
  const { texts } = list;
  const problems = new Map(list.lastError);
  const measurements = new Map(list.measurement);
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
      measurement: measurements.get(k) ?? null,
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
