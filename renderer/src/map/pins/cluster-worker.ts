// The cluster worker: builds the index of many pins off the page's thread and sends it back as
// buffers (cluster-index.ts). It holds nothing between requests: each names its pins' positions and
// marks, and gets the whole index with the pins' drawing order (sorted here, not on the page), or the
// reason it failed.
import { buildIndexOf, northFirstOrder, packIndex, transferables } from './cluster-index';
import type { BuildAnswer, BuildRequest } from './cluster-protocol';

self.addEventListener('message', (event: MessageEvent<BuildRequest>) => {
  const { ticket, options, lat, lng, marks } = event.data;
  let answer: BuildAnswer;
  const started = performance.timeOrigin + performance.now();
  try {
    const order = northFirstOrder(lat);
    // The positions and marks in drawing order: what the index is built from (no pin objects).
    const sorted = { lat: new Float64Array(order.length), lng: new Float64Array(order.length), marks: new Uint8Array(order.length) };
    for (let place = 0; place < order.length; place++) {
      const k = order[place]!;
      sorted.lat[place] = lat[k]!;
      sorted.lng[place] = lng[k]!;
      sorted.marks[place] = marks[k]!;
    }
    const packed = packIndex(buildIndexOf(sorted, options), order.length, options);
    answer = { ticket, ok: true, packed, order, built: [started, performance.timeOrigin + performance.now()] };
  } catch (error) {
    answer = { ticket, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(answer, { transfer: answer.ok ? [...transferables(answer.packed), answer.order.buffer as ArrayBuffer] : [] });
});
