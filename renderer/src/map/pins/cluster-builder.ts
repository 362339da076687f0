// Where the page asks for a cluster index built off its thread: one worker for the page, started when
// first needed (cluster-worker.ts, served from the page's own origin, which the CSP's worker-src
// allows), its answers matched to their requests. Where no worker can run (Node, a worker that fails to
// load or is refused), `offThread` is null or its promise rejects, and the page builds the index itself.
import { record } from '../../shared/load-timing';
import { MARKS, unpackIndex, type BuildAnswer, type BuildRequest, type ClusterIndex, type ClusterOptions, type Located } from './cluster-index';

export interface OffThreadBuilder {
  /** The index of `pins` in drawing order (northFirst), built by the worker. */
  build<P extends Located>(pins: readonly P[], options: ClusterOptions): Promise<ClusterIndex<P>>;
}

type Waiting = { resolve: (answer: BuildAnswer) => void; reject: (error: Error) => void };

class WorkerBuilder implements OffThreadBuilder {
  private nextTicket = 1;
  private readonly waiting = new Map<number, Waiting>();
  private failed: Error | null = null;

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<BuildAnswer>) => {
      const waiting = this.waiting.get(event.data.ticket);
      this.waiting.delete(event.data.ticket);
      waiting?.resolve(event.data);
    });
    // A script that cannot be loaded or run (blocked, missing, a syntax the page's Chromium lacks):
    // every build asked of it, now and later, goes back to the page.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.fail(new Error(`the cluster worker stopped: ${event.message || 'it could not be loaded'}`));
    });
    worker.addEventListener('messageerror', () => this.fail(new Error('the cluster worker sent an answer that could not be read')));
  }

  async build<P extends Located>(pins: readonly P[], options: ClusterOptions): Promise<ClusterIndex<P>> {
    if (this.failed) throw this.failed;
    const ticket = this.nextTicket++;
    const request: BuildRequest = { ticket, options, lat: new Float64Array(pins.length), lng: new Float64Array(pins.length), marks: new Uint8Array(pins.length) };
    pins.forEach((pin, k) => {
      request.lat[k] = pin.lat;
      request.lng[k] = pin.lng;
      request.marks[k] = Math.max(0, MARKS.indexOf(pin.mark));
    });
    const answer = await new Promise<BuildAnswer>((resolve, reject) => {
      this.waiting.set(ticket, { resolve, reject });
      this.worker.postMessage(request, [request.lat.buffer, request.lng.buffer, request.marks.buffer]);
    });
    if (!answer.ok) throw new Error(answer.message);
    const started = performance.now();
    try {
      return unpackIndex(answer.packed, Array.from(answer.order, (k) => pins[k]!), options);
    } finally {
      record('clusters-received', started);
    }
  }

  private fail(error: Error): void {
    this.failed = error;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    this.worker.terminate();
    if (shared === this) shared = null;
  }
}

let shared: OffThreadBuilder | null | undefined;

/** The page's worker builder, started on the first call; null where workers cannot run. */
export function offThread(): OffThreadBuilder | null {
  if (shared !== undefined) return shared;
  try {
    shared = typeof Worker === 'function' ? new WorkerBuilder(new Worker(new URL('./cluster-worker.ts', import.meta.url), { type: 'module', name: 'sitewalk-clusters' })) : null;
  } catch {
    // Refused at once (a policy without worker-src 'self'): the page builds its indexes itself.
    shared = null;
  }
  return shared;
}
