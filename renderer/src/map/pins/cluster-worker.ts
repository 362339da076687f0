// The cluster worker: builds the index of many pins off the page's thread and sends it back as
// buffers (cluster-index.ts). It holds nothing between requests: each names its pins' positions and
// marks, and gets the whole index with the pins' drawing order (sorted here, not on the page), or the
// reason it failed.
import { buildIndex, northFirstOrder, packIndex, transferables } from './cluster-index';
import { MARKS, type BuildAnswer, type BuildRequest, type Located } from './cluster-protocol';

self.addEventListener('message', (event: MessageEvent<BuildRequest>) => {
  const { ticket, options, lat, lng, marks } = event.data;
  let answer: BuildAnswer;
  const started = performance.timeOrigin + performance.now();
  try {
    const order = northFirstOrder(lat);
    const pins: Located[] = Array.from(order, (k) => ({ lat: lat[k]!, lng: lng[k]!, mark: MARKS[marks[k]!] ?? 'none' }));
    const packed = packIndex(buildIndex(pins, options), pins.length, options);
    answer = { ticket, ok: true, packed, order, built: [started, performance.timeOrigin + performance.now()] };
  } catch (error) {
    answer = { ticket, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(answer, { transfer: answer.ok ? [...transferables(answer.packed), answer.order.buffer as ArrayBuffer] : [] });
});
