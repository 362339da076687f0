// The site list's search and filters, and whether the map follows them ("map follows the list",
// remembered on this computer). The shell holds them so the map and the export see what the list shows.
import { useCallback, useState } from 'react';
import { NO_FILTER, readMapFollowsList, writeMapFollowsList, type SiteFilter } from '../../shared/site-filter';

export interface SiteFilterState {
  filter: SiteFilter;
  setFilter: (filter: SiteFilter) => void;
  mapFollowsList: boolean;
  setMapFollowsList: (on: boolean) => void;
  /** Bumped when a draft is saved or dropped, so the list shows its drafts anew. */
  draftsVersion: number;
  draftsChanged: () => void;
}

export function useSiteFilter(): SiteFilterState {
  const [filter, setFilter] = useState<SiteFilter>(NO_FILTER);
  const [mapFollowsList, setFollows] = useState(readMapFollowsList);
  const [draftsVersion, setDraftsVersion] = useState(0);
  const setMapFollowsList = useCallback((on: boolean) => {
    setFollows(on);
    writeMapFollowsList(on);
  }, []);
  const draftsChanged = useCallback(() => setDraftsVersion((v) => v + 1), []);
  return { filter, setFilter, mapFollowsList, setMapFollowsList, draftsVersion, draftsChanged };
}
