// A site as the pin layer draws it: where, which colour, which mark (waiting, rejected, check
// needed), and its title; a site without a position has no pin.
import type { SiteView } from '../../../electron/shared/contract/index';
import { markFor, siteTitle } from '../shared/format';
import type { Pin } from './pins';

export function toPin(site: SiteView): Pin | null {
  if (site.latitude === null || site.longitude === null) return null;
  return {
    id: site.localId,
    lat: site.latitude,
    lng: site.longitude,
    style: site.pinStyle,
    mark: markFor(site.syncState),
    title: siteTitle(site),
  };
}
