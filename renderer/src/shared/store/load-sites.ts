// How the store asks for every site of the active profile: in the lean columnar form (site-list.ts),
// sent with its mostly-equal columns once (site-list-wire.ts: 2.7 MB instead of 5.7 MB at 50,000
// sites), or as views from a host (or a test's API) that has only listSites.
import type { SitewalkApi, SiteView } from '../../../../electron/shared/contract/index';
import { unpackSites, type SiteList } from '../../../../electron/shared/contract/site-list';
import { decodeSiteList } from '../../../../electron/shared/contract/site-list-wire';
import { marked, timed } from '../load-timing';

/** Every site, as columns when the host can send them so. */
export async function loadSiteList(api: SitewalkApi): Promise<SiteView[] | SiteList> {
  if (typeof api.listSitesPacked !== 'function') return api.listSites();
  const wire = await api.listSitesPacked();
  marked('sites-received');
  return timed('sites-decoded', () => decodeSiteList(wire));
}

/** Every site as views. */
export async function loadSites(api: SitewalkApi): Promise<SiteView[]> {
  const list = await loadSiteList(api);
  return Array.isArray(list) ? list : unpackSites(list);
}
