// Whether "Download this area" may be offered for a basemap, as a sentence when it may not. The
// public OpenStreetMap servers are refused whatever the user marked: their Tile Usage Policy forbids
// bulk downloading, and the servers are run by volunteers for people looking at the map.
import { fillTemplate } from './coords';

/** Hosts of the OpenStreetMap community's public tile servers (and their subdomains). */
const PUBLIC_OSM_HOSTS = ['tile.openstreetmap.org', 'openstreetmap.org', 'tile.osm.org', 'osm.org', 'openstreetmap.fr', 'openstreetmap.de', 'tile.openstreetmap.de', 'tile.openstreetmap.fr'];

export function isPublicOsmTemplate(template: string): boolean {
  const url = fillTemplate(template, { z: 0, x: 0, y: 0 }, 'a');
  if (url === null) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return PUBLIC_OSM_HOSTS.some((osm) => host === osm || host.endsWith(`.${osm}`));
}

export const OSM_REFUSAL =
  'Sitewalk does not download areas from the public OpenStreetMap tile servers: their Tile Usage Policy (operations.osmfoundation.org/policies/tiles) forbids bulk downloading, because the servers are run by volunteers on donated resources for people viewing the map. The tiles you look at are still kept for offline use. To take a whole area along, add a basemap file (MBTiles or PMTiles) made for it, or use your own tile server or one whose terms allow downloads.';

export const NOT_ALLOWED_REFUSAL =
  'This tile server is not marked as allowing downloads. Mark it so in its settings only if its terms of use allow copying areas for offline use (many commercial and public servers forbid it).';

export const FILE_REFUSAL = 'This basemap is a file on this computer: it is already offline, there is nothing to download.';

export interface DownloadableSource {
  kind: 'server' | 'file';
  template: string | null;
  allowsDownload: boolean;
}

/** Why an area of this basemap cannot be downloaded, or null when it can. */
export function downloadRefusal(source: DownloadableSource): string | null {
  if (source.kind === 'file' || source.template === null) return FILE_REFUSAL;
  if (isPublicOsmTemplate(source.template)) return OSM_REFUSAL;
  if (!source.allowsDownload) return NOT_ALLOWED_REFUSAL;
  return null;
}
