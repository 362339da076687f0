// The site list's search and filters as one value and one predicate, shared by the list and the map,
// so "what the list shows" and "what the map shows" cannot drift apart.
import type { SiteView, SyncState } from '../../../electron/shared/contract/index';
import { fold, foldedOnce } from './fold';

export type StateFilter = 'all' | SyncState | 'attention';

export interface SiteFilter {
  /** Free text: each word starts a word of the name, site ID, group or description, ignoring case and accents. */
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
  // A query's words each start a word somewhere, as a spreadsheet's filter on "eglise nord" would not, but
  // a person means: folded, so "eglise" finds "Église" and "NORD" finds "Nord"; "Tower 12" finds Tower 12,
  // 120 and 1205, not every site with a 12 inside its ID (a search box's word-start match, as mail and chat apps do).
  const words = fold(filter.query).split(/\s+/).filter((word) => word !== '');
  const { state } = filter;
  const group = fold(filter.group);
  return (s) => {
    if (group && fold(s.group) !== group) return false;
    if (state === 'attention' ? s.syncState !== 'failed' && s.syncState !== 'needs-review' : state !== 'all' && s.syncState !== state) return false;
    if (words.length === 0) return true;
    const text = foldedOnce(s, () => [s.name, s.siteId ?? '', s.group, s.description]);
    return words.every((word) => startsAWord(text, word));
  };
}

const ALNUM = /[\p{L}\p{N}]/u;
const DIGIT = /\p{N}/u;

/**
 * Whether `word` occurs in `text` where a word begins: at the start, after anything not a letter or a
 * digit, or where letters turn to digits or back ("TWR12" has words "twr" and "12"). A query word that
 * itself begins with a sign ("-b", "#4") matches anywhere.
 */
export function startsAWord(text: string, word: string): boolean {
  if (!ALNUM.test(word[0] ?? '')) return text.includes(word);
  const digit = DIGIT.test(word[0]!);
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    if (before === undefined || !ALNUM.test(before) || DIGIT.test(before) !== digit) return true;
  }
  return false;
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
