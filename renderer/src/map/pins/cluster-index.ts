// The cluster index itself, the same code wherever it is built: on the page for a few pins, in a worker
// (cluster-worker.ts) for many, so the first frame of 50,000 sites does not wait on the page's one
// thread for it. supercluster builds its levels as flat number arrays over kdbush trees, and a kdbush
// tree is one ArrayBuffer made to be sent between threads (KDBush.from): a worker's index crosses as
// those buffers, without a copy, and becomes on the page the index the page would have built, answering
// every query the same (test/renderer/cluster-index.test.ts builds both and compares them).
// Each cluster's summary (its box and badges) is worked out beside supercluster, from the parent each
// level's entries record, in one pass over typed arrays: through supercluster's map/reduce it was an
// object per pin and per merge, a third of a cold build of 50,000 pins.
import KDBush from 'kdbush';
import Supercluster from 'supercluster';
import { MARKS, positionsOf, type ClusterOptions, type Located, type PackedIndex, type Positions } from './cluster-protocol';

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
  let unplaced = false;
  for (let k = 0; k < n; k++) {
    keys[k] = 0 - lat[k]!;
    if (Number.isNaN(keys[k])) unplaced = true;
  }
  if (unplaced) return Uint32Array.from(Array.from(lat, (_, k) => k).sort((a, b) => lat[b]! - lat[a]!));
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

/** supercluster's numbers per point or cluster (x, y, zoom, id, parent, count), without map/reduce. */
const STRIDE = 6;
const [ID, PARENT, COUNT] = [3, 4, 5];
/** The numbers of a summary as they are kept: the cluster's ID, south, west, north, east, pending, failed, review. */
const SUMMARY_STRIDE = 8;
const [PENDING, FAILED, REVIEW] = (['pending', 'failed', 'review'] as const).map((mark) => MARKS.indexOf(mark));

/** supercluster's index of the pins, and each of its clusters' summary by the cluster's ID. */
export class ClusterIndex<P extends Located | null> {
  private slots: Map<number, number> | null = null;

  constructor(
    readonly tree: Supercluster<P>,
    /** SUMMARY_STRIDE numbers a cluster: its ID, then its Summary. */
    readonly summaries: Float64Array,
  ) {}

  /** The summary of a cluster of this index (by supercluster's cluster_id). */
  summary(clusterId: number): Summary {
    if (!this.slots) {
      this.slots = new Map();
      for (let slot = 0; slot * SUMMARY_STRIDE < this.summaries.length; slot++) this.slots.set(this.summaries[slot * SUMMARY_STRIDE]!, slot);
    }
    const slot = this.slots.get(clusterId);
    if (slot === undefined) throw new Error(`no cluster ${clusterId} in this index`);
    const s = this.summaries;
    const at = slot * SUMMARY_STRIDE + 1;
    return { south: s[at]!, west: s[at + 1]!, north: s[at + 2]!, east: s[at + 3]!, pending: s[at + 4]!, failed: s[at + 5]!, review: s[at + 6]! };
  }
}

function newTree<P extends Located | null>({ radius, maxZoom, minPoints }: ClusterOptions): Supercluster<P> {
  // Leaflet's world is 256 pixels wide at zoom 0: the radius is then in screen pixels.
  return new Supercluster<P>({ radius, extent: 256, maxZoom, minPoints });
}

/** The index of `pins`, in their order (the page's: northFirst). */
export function buildIndex<P extends Located>(pins: readonly P[], options: ClusterOptions): ClusterIndex<P> {
  const tree = newTree<P>(options).load(pins.map((pin) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [pin.lng, pin.lat] }, properties: pin })));
  return new ClusterIndex(tree, summarize(partsOf(tree, true).trees, positionsOf(pins)));
}

/**
 * The worker's index: of the pins `arrays` holds, in their order, with no pin objects (only their
 * places). supercluster's `load` reads GeoJSON features; here its first level is written from the
 * arrays instead (50,000 features are three objects each, made to be read once, then an array grown
 * by 300,000 pushes: a cold build of 50,000 in Node took 145 ms, now 100), then its own steps make
 * every level above, so the index is the one `load` makes (test/renderer/cluster-index.test.ts
 * compares it with the page's `buildIndex`, which uses `load`).
 */
export function buildIndexOf(arrays: Positions, options: ClusterOptions): ClusterIndex<null> {
  const tree = newTree<null>(options);
  const steps = stepsOf(tree);
  const { lat, lng } = arrays;
  // supercluster's first level, as its `load` writes it: x and y (spherical Mercator, 0…1, in
  // float32 precision), the zoom last processed, the pin's place, no parent, one point.
  const data = new Float64Array(lat.length * STRIDE);
  for (let k = 0; k < lat.length; k++) {
    const at = k * STRIDE;
    const sin = Math.sin((lat[k]! * Math.PI) / 180);
    const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
    data[at] = Math.fround(lng[k]! / 360 + 0.5);
    data[at + 1] = Math.fround(y < 0 ? 0 : y > 1 ? 1 : y);
    data[at + 2] = Infinity;
    data[at + ID] = k;
    data[at + PARENT] = -1;
    data[at + COUNT] = 1;
  }
  // Clusters' IDs are counted from the number of points; nothing else of them is read while building.
  steps.points = new Array<null>(lat.length);
  let level = (steps.trees[options.maxZoom + 1] = steps._createTree(data));
  for (let zoom = options.maxZoom; zoom >= 0; zoom--) level = steps.trees[zoom] = steps._createTree(steps._cluster(level, zoom));
  return new ClusterIndex(tree, summarize(partsOf(tree, true).trees, arrays));
}

/** The steps of supercluster 8's `load` that buildIndexOf runs itself, checked to be there (an upgrade that renamed them is an error, not a wrong index). */
interface LoadSteps extends IndexParts {
  _createTree(data: ArrayLike<number>): IndexParts['trees'][number];
  _cluster(tree: IndexParts['trees'][number], zoom: number): number[];
}

function stepsOf(tree: object): LoadSteps {
  const steps = tree as Partial<LoadSteps>;
  partsOf(tree, false);
  if (typeof steps._createTree !== 'function' || typeof steps._cluster !== 'function') throw new Error('this supercluster builds its levels in a way the cluster worker does not know');
  return steps as LoadSteps;
}

/**
 * Every cluster's summary, from the levels supercluster built: each entry of a level that was gathered
 * into a cluster at the next zoom down records that cluster's ID as its parent, so going from the pins'
 * level down, a cluster's members are all summed before it is itself summed into its own parent. A
 * cluster's ID says where it was made (supercluster 8: the zoom, and the place in the level above of the
 * entry it grew from), which is where its summary is found again: typed arrays, no map of IDs.
 */
function summarize(trees: IndexParts['trees'], { lat, lng, marks }: Positions): Float64Array {
  const pins = lat.length;
  // By the zoom a cluster was made at, its summary's place by the place of the entry it grew from.
  const madeAt: Int32Array[] = [];
  const placeOf = (id: number) => madeAt[((id - pins) % 32) - 1]![Math.floor((id - pins) / 32)]!;
  // A cluster has at least two members, each a pin or a cluster, each counted once: fewer clusters than pins.
  const out = new Float64Array(Math.max(1, pins) * SUMMARY_STRIDE);
  let used = 0;
  for (let level = trees.length - 1; level >= 1; level--) {
    const data = trees[level]!.data;
    const made = (madeAt[level - 1] = new Int32Array(data.length / STRIDE).fill(-1));
    for (let i = 0; i < data.length; i += STRIDE) {
      const parent = data[i + PARENT]!;
      if (parent === -1) continue;
      const origin = Math.floor((parent - pins) / 32);
      let at = made[origin]!;
      if (at === -1) {
        at = made[origin] = used;
        used += SUMMARY_STRIDE;
        out[at] = parent;
        out[at + 1] = out[at + 2] = Infinity;
        out[at + 3] = out[at + 4] = -Infinity;
      }
      const id = data[i + ID]!;
      if (data[i + COUNT] === 1) {
        const y = lat[id]!;
        const x = lng[id]!;
        const mark = marks[id]!;
        out[at + 1] = Math.min(out[at + 1]!, y);
        out[at + 2] = Math.min(out[at + 2]!, x);
        out[at + 3] = Math.max(out[at + 3]!, y);
        out[at + 4] = Math.max(out[at + 4]!, x);
        if (mark === PENDING) out[at + 5]!++;
        else if (mark === FAILED) out[at + 6]!++;
        else if (mark === REVIEW) out[at + 7]!++;
      } else {
        const from = placeOf(id);
        out[at + 1] = Math.min(out[at + 1]!, out[from + 1]!);
        out[at + 2] = Math.min(out[at + 2]!, out[from + 2]!);
        out[at + 3] = Math.max(out[at + 3]!, out[from + 3]!);
        out[at + 4] = Math.max(out[at + 4]!, out[from + 4]!);
        for (let f = 5; f < SUMMARY_STRIDE; f++) out[at + f]! += out[from + f]!;
      }
    }
  }
  return out.slice(0, used);
}

/** The parts of supercluster 8's index this module moves between threads. */
interface IndexParts {
  trees: Array<KDBush & { data: ArrayLike<number> }>;
  points: unknown[];
  stride: number;
}

/**
 * The index's parts, checked to be the shape this module knows (supercluster 8, whose levels the
 * summaries and the worker's buffers are read from): another shape (an upgrade) is an error, which
 * test/renderer/cluster-index.test.ts meets at once, rather than wrong clusters.
 */
function partsOf(index: object, built: boolean): IndexParts {
  const parts = index as Partial<IndexParts>;
  const known = parts.stride === STRIDE && Array.isArray(parts.trees);
  const trees = (parts.trees ?? []) as Array<Partial<KDBush> | undefined>;
  const levelsKnown = !built || trees.every((tree) => tree?.ids?.buffer instanceof ArrayBuffer && isLevelData((tree as { data?: unknown }).data));
  if (!known || !levelsKnown) throw new Error('this supercluster keeps its index in a shape the cluster worker does not know');
  return parts as IndexParts;
}

/** A level's numbers: supercluster's array, or the Float64Array buildIndexOf writes its first level in. */
function isLevelData(data: unknown): boolean {
  return Array.isArray(data) || data instanceof Float64Array;
}

/** The buffers to hand to postMessage's transfer list along with `packed`. */
export function transferables(packed: PackedIndex): ArrayBuffer[] {
  return [...packed.levels.flatMap((level) => [level.tree, level.data.buffer as ArrayBuffer]), packed.summaries.buffer as ArrayBuffer];
}

export function packIndex(index: ClusterIndex<Located | null>, count: number, options: ClusterOptions): PackedIndex {
  const parts = partsOf(index.tree, true);
  if (parts.trees.length !== options.maxZoom + 2) throw new Error('the cluster index has levels this module does not know');
  return {
    count,
    // A tree's `data` is supercluster's array beside kdbush's own buffer, which `ids` views whole.
    levels: parts.trees.map((tree) => ({ tree: tree.ids.buffer as ArrayBuffer, data: tree.data instanceof Float64Array ? tree.data : Float64Array.from(tree.data) })),
    summaries: index.summaries,
  };
}

/**
 * The index `packed` describes, over `pins`: the same pins, in the same order, as it was built from.
 * Its points are made as queries reach them (a view shows a few hundred of the 50,000 pins), not all
 * at once before the first frame.
 */
export function unpackIndex<P extends Located>(packed: PackedIndex, pins: readonly P[], options: ClusterOptions): ClusterIndex<P> {
  if (pins.length !== packed.count || packed.levels.length !== options.maxZoom + 2) throw new Error('the packed cluster index is not of these pins');
  const tree = newTree<P>(options);
  const parts = partsOf(tree, false);
  parts.trees = packed.levels.map((level) => Object.assign(KDBush.from(level.tree), { data: level.data }));
  parts.points = onDemand(pins.length, (k) => {
    const pin = pins[k]!;
    return { type: 'Feature', geometry: { type: 'Point', coordinates: [pin.lng, pin.lat] }, properties: pin };
  });
  return new ClusterIndex(tree, packed.summaries);
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
