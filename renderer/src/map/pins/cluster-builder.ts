// The index of many pins, built by the cluster worker (cluster-client.ts) and stood on the page
// (cluster-index.ts): the answer asked early for the same pins if there is one (cluster-early.ts),
// else a new request. Null where no worker can run: the page then builds the index itself.
import { record } from '../../shared/load-timing';
import { unpackIndex, type ClusterIndex } from './cluster-index';
import { takeEarly, workerClient } from './cluster-client';
import { positionsOf, type ClusterOptions, type Located } from './cluster-protocol';

export interface OffThreadBuilder {
  /** The index of `pins` in drawing order (northFirst), built by the worker. */
  build<P extends Located>(pins: readonly P[], options: ClusterOptions): Promise<ClusterIndex<P>>;
}

export function offThread(): OffThreadBuilder | null {
  const client = workerClient();
  if (!client) return null;
  return {
    async build<P extends Located>(pins: readonly P[], options: ClusterOptions): Promise<ClusterIndex<P>> {
      const answer = await (takeEarly(pins, options) ?? client.request(positionsOf(pins), options));
      if (!answer.ok) throw new Error(answer.message);
      const started = performance.now();
      try {
        return unpackIndex(answer.packed, Array.from(answer.order, (k) => pins[k]!), options);
      } finally {
        record('clusters-received', started);
      }
    },
  };
}
