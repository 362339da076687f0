// The site list's search and filters as one value and one predicate, shared by the list and the map,
// so "what the list shows" and "what the map shows" cannot drift apart.
import type { SiteView, SyncState } from '../../../electron/shared/contract/index';

export type StateFilter = 'all' | SyncState | 'attention';

export interface SiteFilter {
  /** Free text: matched against name, site ID, group and description, case-insensitive. */
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
  const q = filter.query.trim().toLowerCase();
  const { group, state } = filter;
  return (s) => {
    if (group && s.group !== group) return false;
    if (state === 'attention' ? s.syncState !== 'failed' && s.syncState !== 'needs-review' : state !== 'all' && s.syncState !== state) return false;
    if (!q) return true;
    return s.name.toLowerCase().includes(q) || (s.siteId ?? '').toLowerCase().includes(q) || s.group.toLowerCase().includes(q) || s.description.toLowerCase().includes(q);
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
