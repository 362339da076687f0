// What crosses between the page and the cluster worker, and the clustering's options: no library
// here, so the page's boot can ask for an index (cluster-early.ts) without loading supercluster.
import type { PinMark } from '../../shared/sprites';

export interface ClusterOptions {
  /** Pins closer than this (screen pixels at a zoom) are gathered. About a pin's height. */
  radius: number;
  /** The last zoom with clusters; from the next one on every pin is drawn on its own. */
  maxZoom: number;
  /** Fewer pins than this close together stay pins. */
  minPoints: number;
}

export const CLUSTER_DEFAULTS: ClusterOptions = { radius: 44, maxZoom: 12, minPoints: 3 };

/**
 * From this many pins the index is built in the worker (cluster-builder.ts): 50,000 take 100-400 ms,
 * a few thousand take less than the trip to the worker and back.
 */
export const OFF_THREAD_FROM = 5_000;

/** What the index reads of a pin. */
export interface Located {
  lat: number;
  lng: number;
  mark: PinMark;
}

/** Pins as the worker and the index's summaries read them: positions and marks (places in MARKS), in the layer's order. */
export interface Positions {
  lat: Float64Array;
  lng: Float64Array;
  marks: Uint8Array;
}

/** How a request to build an index crosses to the worker: the pins' positions and marks, in the layer's order. */
export interface BuildRequest extends Positions {
  ticket: number;
  options: ClusterOptions;
}

export const MARKS: readonly PinMark[] = ['none', 'pending', 'failed', 'review'];

/** `pins` as their Positions. */
export function positionsOf(pins: readonly Located[]): Positions {
  const positions: Positions = { lat: new Float64Array(pins.length), lng: new Float64Array(pins.length), marks: new Uint8Array(pins.length) };
  pins.forEach((pin, k) => {
    positions.lat[k] = pin.lat;
    positions.lng[k] = pin.lng;
    positions.marks[k] = Math.max(0, MARKS.indexOf(pin.mark));
  });
  return positions;
}

/**
 * The answer: the index of the pins in drawing order, and that order (`order[k]` is the request's place
 * of the k-th pin); `built` is when the worker started and ended the build (ms since 1970, as
 * performance.timeOrigin + now(): the two threads' timelines start at different moments).
 */
export type BuildAnswer = { ticket: number; ok: true; packed: PackedIndex; order: Uint32Array; built: [number, number] } | { ticket: number; ok: false; message: string };

/** An index as it crosses between threads: per zoom its kdbush buffer and its cluster data, and the summaries. */
export interface PackedIndex {
  /** How many pins it was built from. */
  count: number;
  /** Zoom by zoom, 0 to maxZoom + 1 (the pins themselves). */
  levels: Array<{ tree: ArrayBuffer; data: Float64Array }>;
  /** Each cluster's summary, seven numbers apiece (cluster-index.ts), in supercluster's order. */
  summaries: Float64Array;
}
