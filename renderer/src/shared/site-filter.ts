// The site list's search and filters as one value and one predicate, shared by the list and the map,
// so "what the list shows" and "what the map shows" cannot drift apart.
import type { SiteView, SyncState } from '../../../electron/shared/contract/index';
import { fold, foldedOnce } from './fold';

export type StateFilter = 'all' | SyncState | 'attention';

export interface SiteFilter {
  /** Free text: matched against name, site ID, group and description, ignoring case and accents. */
  query: string;
  /** A group's name, or '' for every group. */
  group: string;
  state: StateFilter;
}

export const NO_FILTER: SiteFilter = { query: '', group: '', state: 'all' };

/** Whether the filter lets every site through. */
export function isEmptyFilter(filter: SiteFilter): boolean {
  return filter.query.trim() === '' && filter.group === '' && filter.state === 'all';
}

/**
 * The predicate for one filter. Build it once per filter and call it per site: the query is
 * normalised here, not once per site.
 */
export function siteMatcher(filter: SiteFilter): (site: SiteView) => boolean {
  // A query's words each match somewhere, as a spreadsheet's filter on "eglise nord" would not, but
  // a person means: folded, so "eglise" finds "Église" and "NORD" finds "Nord".
  const words = fold(filter.query).split(/\s+/).filter((word) => word !== '');
  const { state } = filter;
  const group = fold(filter.group);
  return (s) => {
    if (group && fold(s.group) !== group) return false;
    if (state === 'attention' ? s.syncState !== 'failed' && s.syncState !== 'needs-review' : state !== 'all' && s.syncState !== state) return false;
    if (words.length === 0) return true;
    const text = foldedOnce(s, () => [s.name, s.siteId ?? '', s.group, s.description]);
    return words.every((word) => text.includes(word));
  };
}

export function filterSites(sites: readonly SiteView[], filter: SiteFilter): SiteView[] {
  return sites.filter(siteMatcher(filter));
}

const FOLLOW_KEY = 'sitewalk.mapFollowsList';

/** Whether the map shows only the sites the list shows (the user's choice, kept across sessions; on until turned off). */
export function readMapFollowsList(): boolean {
  try {
    return globalThis.localStorage?.getItem(FOLLOW_KEY) !== '0';
  } catch {
    return true;
  }
}

export function writeMapFollowsList(on: boolean): void {
  try {
    globalThis.localStorage?.setItem(FOLLOW_KEY, on ? '1' : '0');
  } catch {
    // Storage unavailable: the choice lasts this session only.
  }
}
