// The cluster index itself, the same code wherever it is built: on the page for a few pins, in a worker
// (cluster-worker.ts) for many, so the first frame of 50,000 sites does not wait on the page's one
// thread for it. supercluster builds its levels as flat number arrays over kdbush trees, and a kdbush
// tree is one ArrayBuffer made to be sent between threads (KDBush.from): a worker's index crosses as
// those buffers, without a copy, and becomes on the page the index the page would have built, answering
// every query the same (test/renderer/cluster-index.test.ts builds both and compares them).
import KDBush from 'kdbush';
import Supercluster from 'supercluster';
import type { ClusterOptions, Located, PackedIndex } from './cluster-protocol';

/** What a cluster summarises of its members. */
export interface Summary {
  south: number;
  west: number;
  north: number;
  east: number;
  pending: number;
  failed: number;
  review: number;
}

/**
 * Drawing order, north first, by which the index is built: the order decides which pin a cluster grows
 * from, so the page and the worker sort alike (a stable sort by the same comparison gives one order).
 */
export function northFirst<P extends Located>(pins: readonly P[]): P[] {
  return [...pins].sort((a, b) => b.lat - a.lat);
}

/**
 * northFirst as places in `lat` (the worker's way: it has the latitudes, not the pins). The worker runs
 * this once a page, cold: a comparison function called ~800,000 times for 50,000 pins took it 25 ms, so
 * the latitudes are sorted by the engine's own numeric sort instead, and each place put after the
 * earlier places of its latitude (found by bisection), which is the stable sort's order.
 */
export function northFirstOrder(lat: Float64Array): Uint32Array {
  const n = lat.length;
  // Ascending keys are descending latitudes; 0 - x makes -0 and 0 one key, as the comparison has them.
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = 0 - lat[k]!;
  if (keys.some(Number.isNaN)) return Uint32Array.from(Array.from(lat, (_, k) => k).sort((a, b) => lat[b]! - lat[a]!));
  const sorted = keys.slice().sort();
  const placed = new Uint32Array(n);
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const key = keys[k]!;
    let low = 0;
    let high = n;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < key) low = middle + 1;
      else high = middle;
    }
    order[low + placed[low]!++] = k;
  }
  return order;
}

export type ClusterIndex<P extends Located> = Supercluster<P, Summary>;

function newIndex<P extends Located>({ radius, maxZoom, minPoints }: ClusterOptions): ClusterIndex<P> {
  return new Supercluster<P, Summary>({
    radius,
    // Leaflet's world is 256 pixels wide at zoom 0: the radius is then in screen pixels.
    extent: 256,
    maxZoom,
    minPoints,
    map: (pin) => ({
      south: pin.lat,
      north: pin.lat,
      west: pin.lng,
      east: pin.lng,
      pending: pin.mark === 'pending' ? 1 : 0,
      failed: pin.mark === 'failed' ? 1 : 0,
      review: pin.mark === 'review' ? 1 : 0,
    }),
    reduce: (acc, p) => {
      acc.south = Math.min(acc.south, p.south);
      acc.north = Math.max(acc.north, p.north);
      acc.west = Math.min(acc.west, p.west);
      acc.east = Math.max(acc.east, p.east);
      acc.pending += p.pending;
      acc.failed += p.failed;
      acc.review += p.review;
    },
  });
}

/** The index of `pins`, in their order (the page's: northFirst). */
export function buildIndex<P extends Located>(pins: readonly P[], options: ClusterOptions): ClusterIndex<P> {
  return newIndex<P>(options).load(pins.map((pin) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [pin.lng, pin.lat] }, properties: pin })));
}

const SUMMARY_FIELDS = ['south', 'west', 'north', 'east', 'pending', 'failed', 'review'] as const;
/** supercluster's numbers per point or cluster when it reduces (x, y, zoom, id, parent, count, summary). */
const STRIDE = 7;

/** The parts of supercluster 8's index this module moves between threads. */
interface IndexParts {
  trees: Array<KDBush & { data: ArrayLike<number> }>;
  clusterProps: Summary[];
  points: unknown[];
  stride: number;
}

/**
 * The index's parts, checked to be the shape this module knows (supercluster 8): with another, the
 * error sends the build back to the page's thread (clusters.ts), where supercluster builds it itself.
 */
function partsOf(index: object, built: boolean): IndexParts {
  const parts = index as Partial<IndexParts>;
  const known = parts.stride === STRIDE && Array.isArray(parts.trees) && Array.isArray(parts.clusterProps);
  const trees = (parts.trees ?? []) as Array<Partial<KDBush> | undefined>;
  const levelsKnown = !built || trees.every((tree) => tree?.ids?.buffer instanceof ArrayBuffer && Array.isArray((tree as { data?: unknown }).data));
  if (!known || !levelsKnown) throw new Error('this supercluster keeps its index in a shape the cluster worker does not know');
  return parts as IndexParts;
}

/** The buffers to hand to postMessage's transfer list along with `packed`. */
export function transferables(packed: PackedIndex): ArrayBuffer[] {
  return [...packed.levels.flatMap((level) => [level.tree, level.data.buffer as ArrayBuffer]), packed.summaries.buffer as ArrayBuffer];
}

export function packIndex(index: ClusterIndex<Located>, count: number, options: ClusterOptions): PackedIndex {
  const parts = partsOf(index, true);
  if (parts.trees.length !== options.maxZoom + 2) throw new Error('the cluster index has levels this module does not know');
  const summaries = new Float64Array(parts.clusterProps.length * SUMMARY_FIELDS.length);
  parts.clusterProps.forEach((summary, k) => SUMMARY_FIELDS.forEach((field, f) => (summaries[k * SUMMARY_FIELDS.length + f] = summary[field])));
  return {
    count,
    // A tree's `data` is supercluster's array beside kdbush's own buffer, which `ids` views whole.
    levels: parts.trees.map((tree) => ({ tree: tree.ids.buffer as ArrayBuffer, data: Float64Array.from(tree.data) })),
    summaries,
  };
}

/**
 * The index `packed` describes, over `pins`: the same pins, in the same order, as it was built from.
 * Its points and cluster summaries are made as queries reach them (a view shows a few hundred of the
 * 50,000 pins and of the clusters of every zoom), not all at once before the first frame.
 */
export function unpackIndex<P extends Located>(packed: PackedIndex, pins: readonly P[], options: ClusterOptions): ClusterIndex<P> {
  if (pins.length !== packed.count || packed.levels.length !== options.maxZoom + 2) throw new Error('the packed cluster index is not of these pins');
  const index = newIndex<P>(options);
  const parts = partsOf(index, false);
  parts.trees = packed.levels.map((level) => Object.assign(KDBush.from(level.tree), { data: level.data }));
  const s = packed.summaries;
  parts.clusterProps = onDemand<Summary>(s.length / SUMMARY_FIELDS.length, (k) => {
    const at = k * SUMMARY_FIELDS.length;
    return { south: s[at]!, west: s[at + 1]!, north: s[at + 2]!, east: s[at + 3]!, pending: s[at + 4]!, failed: s[at + 5]!, review: s[at + 6]! };
  });
  parts.points = onDemand(pins.length, (k) => {
    const pin = pins[k]!;
    return { type: 'Feature', geometry: { type: 'Point', coordinates: [pin.lng, pin.lat] }, properties: pin };
  });
  return index;
}

/**
 * An array of `length` items, each made by `make` when first read and kept: what supercluster reads of
 * its points and summaries (an item by place, and the length), and no more.
 */
function onDemand<T>(length: number, make: (k: number) => T): T[] {
  const made: Array<T | undefined> = new Array<T | undefined>(length);
  return new Proxy(made, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key !== '') {
        const k = Number(key);
        if (Number.isInteger(k) && k >= 0 && k < length) return (target[k] ??= make(k));
      }
      return Reflect.get(target, key, receiver);
    },
  }) as T[];
}
