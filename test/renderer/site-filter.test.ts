// The one filter behind the site list and the map: what a search or a filter lets through is the
// same on both, by construction.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteView } from '../../electron/shared/contract/index';
import { filterSites, isEmptyFilter, NO_FILTER, readMapFollowsList, siteMatcher, writeMapFollowsList } from '../../renderer/src/shared/site-filter';
import { siteView } from './site-view';

const sites: SiteView[] = [
  siteView({ localId: 'a', name: 'Bozeman Ridge', siteId: '1001', group: 'North', syncState: 'synced' }),
  siteView({ localId: 'b', name: 'Belgrade Water Tower', siteId: '1002', group: 'South', syncState: 'failed' }),
  siteView({ localId: 'c', name: 'Manhattan Silo', siteId: null, group: 'North', syncState: 'pending', description: 'Grain elevator near the ridge' }),
  siteView({ localId: 'd', name: 'Four Corners', siteId: '1004', group: '', syncState: 'needs-review' }),
];
const ids = (list: SiteView[]) => list.map((s) => s.localId);

describe('the site filter', () => {
  it('lets everything through when empty', () => {
    expect(isEmptyFilter(NO_FILTER)).toBe(true);
    expect(ids(filterSites(sites, NO_FILTER))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('searches name, site ID, group and description, ignoring case and outer spaces', () => {
    expect(ids(filterSites(sites, { ...NO_FILTER, query: '  RIDGE ' }))).toEqual(['a', 'c']);
    expect(ids(filterSites(sites, { ...NO_FILTER, query: '1002' }))).toEqual(['b']);
    expect(ids(filterSites(sites, { ...NO_FILTER, query: 'south' }))).toEqual(['b']);
  });

  it('matches each word where a word of the site begins, not anywhere inside one', () => {
    const bulk = [
      siteView({ localId: 't12', name: 'Bulk Tower 12', siteId: '5512', group: '', syncState: 'synced' }),
      siteView({ localId: 't120', name: 'Bulk Tower 120', siteId: '5513', group: '', syncState: 'synced' }),
      siteView({ localId: 't312', name: 'Bulk Tower 312', siteId: '1299', group: '', syncState: 'synced' }),
      siteView({ localId: 't7', name: 'Bulk Tower 7', siteId: '4120', group: '', syncState: 'synced' }),
      siteView({ localId: 'twr', name: 'TWR12-North', siteId: null, group: 'Water-tower', syncState: 'pending' }),
    ];
    // "12" inside 312, 5512 or 4120 is not what "Bulk Tower 12" means; an ID that begins with it is.
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: 'Bulk Tower 12' }))).toEqual(['t12', 't120', 't312']);
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: '12' }))).toEqual(['t12', 't120', 't312', 'twr']);
    // Letters and digits run together are two words; after a hyphen a word begins.
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: 'north' }))).toEqual(['twr']);
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: 'tower' }))).toEqual(['t12', 't120', 't312', 't7', 'twr']);
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: 'ower' }))).toEqual([]);
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: 'twr12-n' }))).toEqual(['twr']);
    // A word that begins with a sign is looked for anywhere.
    expect(ids(filterSites(bulk, { ...NO_FILTER, query: '-north' }))).toEqual(['twr']);
  });

  it('filters by group and by state, "needs attention" being failed or needs review', () => {
    expect(ids(filterSites(sites, { ...NO_FILTER, group: 'North' }))).toEqual(['a', 'c']);
    expect(ids(filterSites(sites, { ...NO_FILTER, state: 'pending' }))).toEqual(['c']);
    expect(ids(filterSites(sites, { ...NO_FILTER, state: 'attention' }))).toEqual(['b', 'd']);
    expect(ids(filterSites(sites, { query: 'ridge', group: 'North', state: 'pending' }))).toEqual(['c']);
    expect(isEmptyFilter({ ...NO_FILTER, state: 'attention' })).toBe(false);
  });

  it('folds case and accents as a spreadsheet user expects, in the search and the group filter', () => {
    const french = [
      siteView({ localId: 'e', name: 'Église Saint-Rémi', siteId: '2001', group: 'Côte Nord', syncState: 'synced' }),
      siteView({ localId: 'f', name: 'EGLISE DU PORT', siteId: '2002', group: 'côte nord', syncState: 'synced' }),
      siteView({ localId: 'g', name: 'Straße Süd', siteId: '2003', group: 'Süd', syncState: 'synced', description: 'Mast, Øresund' }),
    ];
    expect(ids(filterSites(french, { ...NO_FILTER, query: 'eglise' }))).toEqual(['e', 'f']);
    expect(ids(filterSites(french, { ...NO_FILTER, query: 'ÉGLISE remi' }))).toEqual(['e']);
    expect(ids(filterSites(french, { ...NO_FILTER, query: 'strasse sud' }))).toEqual(['g']);
    expect(ids(filterSites(french, { ...NO_FILTER, query: 'oresund' }))).toEqual(['g']);
    expect(ids(filterSites(french, { ...NO_FILTER, group: 'Cote Nord' }))).toEqual(['e', 'f']);
  });

  it('is the same predicate for one site as for the list', () => {
    const filter = { query: 'o', group: '', state: 'all' as const };
    const matches = siteMatcher(filter);
    expect(ids(sites.filter(matches))).toEqual(ids(filterSites(sites, filter)));
  });

  describe('the map follows the list', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('by default, until the user turns it off, and remembers either choice', () => {
      const kept = new Map<string, string>();
      vi.stubGlobal('localStorage', { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => kept.set(k, v) });
      expect(readMapFollowsList()).toBe(true);
      writeMapFollowsList(false);
      expect(readMapFollowsList()).toBe(false);
      writeMapFollowsList(true);
      expect(readMapFollowsList()).toBe(true);
    });
  });
});
