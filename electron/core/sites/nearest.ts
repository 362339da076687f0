// The nearest site of the active profile to a position, for the EUS layer's distances. The index is
// built from the packed site list, which the core hands out unchanged until a site or the profile
// changes, so previews of one file re-use one index.
import type { EusNearestSite } from '../../shared/bulk/eus';
import type { SiteList } from '../../shared/contract/site-list';
import { NearestSiteIndex } from '../../shared/geo/nearest-site';
import type { SitewalkCore } from '../sitewalk-core';

const built = new WeakMap<SiteList, NearestSiteIndex>();

/** A finder over the sites as they are now. */
export function nearestSiteFinder(sites: Pick<SitewalkCore['sites'], 'listPacked'>): (latitude: number, longitude: number) => EusNearestSite | null {
  const list = sites.listPacked();
  let index = built.get(list);
  if (!index) {
    const points = list.latitude.map((latitude, i) => ({ latitude, longitude: list.longitude[i] ?? null }));
    index = new NearestSiteIndex(points);
    built.set(list, index);
  }
  const found = index;
  return (latitude, longitude) => {
    const nearest = found.nearest(latitude, longitude);
    if (!nearest) return null;
    const i = nearest.index;
    return { localId: list.localId[i]!, siteId: list.siteId[i] ?? null, name: list.name[i] ?? '', km: nearest.km };
  };
}
