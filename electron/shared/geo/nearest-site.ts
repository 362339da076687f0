// The nearest site to a point, for many points: a static kd-tree of the sites (kdbush) searched on
// the sphere (geokdbush: great-circle distances, right across the antimeridian and near the poles),
// so 5,000 submissions against 50,000 sites is a few milliseconds, not 250 million distances.
// Build once per site list; browser-safe.
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';

export interface SitePoint {
  latitude: number | null;
  longitude: number | null;
}

export interface Nearest {
  /** Index of the site in the list the index was built from. */
  index: number;
  /** Great-circle distance in kilometers. */
  km: number;
}

export class NearestSiteIndex {
  private readonly tree: KDBush | null;
  /** Tree position → index in the caller's list (sites without a position are left out). */
  private readonly positions: number[] = [];

  constructor(private readonly sites: readonly SitePoint[]) {
    for (let i = 0; i < sites.length; i++) {
      const { latitude, longitude } = sites[i]!;
      if (latitude !== null && longitude !== null && Number.isFinite(latitude) && Number.isFinite(longitude)) this.positions.push(i);
    }
    if (this.positions.length === 0) {
      this.tree = null;
      return;
    }
    const tree = new KDBush(this.positions.length);
    for (const i of this.positions) tree.add(sites[i]!.longitude!, sites[i]!.latitude!);
    tree.finish();
    this.tree = tree;
  }

  /** Sites with a position in the index. */
  get size(): number {
    return this.positions.length;
  }

  /** The closest site to the point, or null when no site has a position. */
  nearest(latitude: number, longitude: number): Nearest | null {
    if (this.tree === null) return null;
    const [found] = around(this.tree, longitude, latitude, 1);
    if (found === undefined) return null;
    const index = this.positions[found]!;
    const site = this.sites[index]!;
    return { index, km: distance(longitude, latitude, site.longitude!, site.latitude!) };
  }
}
