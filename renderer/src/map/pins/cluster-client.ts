// The page's side of the cluster worker: one worker for the page, started when first needed
// (cluster-worker.ts, served from the page's own origin, which the CSP's worker-src allows), its
// answers matched to their requests. Where no worker can run (Node, a script that fails to load or is
// refused) there is no client, or its answers fail, and the page builds its indexes itself. No
// supercluster here: the page's boot asks through this module before the map's code has arrived.
import { marked, record } from '../../shared/load-timing';
import { MARKS, type BuildAnswer, type BuildRequest, type ClusterOptions, type Located, type Positions } from './cluster-protocol';

type Waiting = { resolve: (answer: BuildAnswer) => void; reject: (error: Error) => void };

class WorkerClient {
  private nextTicket = 1;
  private readonly waiting = new Map<number, Waiting>();
  private failed: Error | null = null;

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<BuildAnswer>) => {
      // The build itself on the page's timeline: what the time from asking to answer spent building,
      // the rest was the worker's start and the crossings.
      if (event.data.ok) record('clusters-worker-build', event.data.built[0] - performance.timeOrigin, event.data.built[1] - performance.timeOrigin);
      const waiting = this.waiting.get(event.data.ticket);
      this.waiting.delete(event.data.ticket);
      waiting?.resolve(event.data);
    });
    // A script that cannot be loaded or run: every build asked of it, now and later, goes back to the page.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.fail(new Error(`the cluster worker stopped: ${event.message || 'it could not be loaded'}`));
    });
    worker.addEventListener('messageerror', () => this.fail(new Error('the cluster worker sent an answer that could not be read')));
  }

  /** The worker's answer for these pins (copied to it: the caller may keep them). */
  request(positions: Positions, options: ClusterOptions): Promise<BuildAnswer> {
    if (this.failed) return Promise.reject(this.failed);
    const ticket = this.nextTicket++;
    const request: BuildRequest = { ticket, options, ...positions };
    return new Promise<BuildAnswer>((resolve, reject) => {
      this.waiting.set(ticket, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private fail(error: Error): void {
    this.failed = error;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    this.worker.terminate();
    if (shared === this) shared = null;
  }
}

let shared: WorkerClient | null | undefined;

/** The page's worker, started on the first call; null where workers cannot run. */
export function workerClient(): WorkerClient | null {
  if (shared !== undefined) return shared;
  try {
    shared = typeof Worker === 'function' ? new WorkerClient(new Worker(new URL('./cluster-worker.ts', import.meta.url), { type: 'module', name: 'sitewalk-clusters' })) : null;
  } catch {
    // Refused at once (a policy without worker-src 'self'): the page builds its indexes itself.
    shared = null;
  }
  return shared;
}

/** An index asked for before its pins were made (cluster-early.ts), for the first build of the same pins. */
let early: { positions: Positions; options: ClusterOptions; answer: Promise<BuildAnswer> } | null = null;
/** Only the first load's pins are asked early, once: from the host's positions, or else from the list. */
let askedEarly = false;

/** Whether an index was asked early already (then the list's arrival asks nothing more). */
export function earlyAsked(): boolean {
  return askedEarly;
}

/** Asks the worker now for the index of pins the map will be given later (once a page). */
export function askEarly(positions: Positions, options: ClusterOptions): void {
  const client = workerClient();
  if (!client || askedEarly) return;
  askedEarly = true;
  const asked = performance.now();
  const answer = client.request(positions, options);
  marked('clusters-asked-early');
  // Never taken (the map was given other pins): its failure is nobody's to hear.
  answer.then(() => record('clusters-early', asked), () => undefined);
  early = { positions, options, answer };
}

/** The answer asked early, when it was for exactly these pins and options; each early answer is offered once. */
export function takeEarly(pins: readonly Located[], options: ClusterOptions): Promise<BuildAnswer> | null {
  const asked = early;
  early = null;
  if (!asked) return null;
  if (!sameOptions(asked.options, options) || !samePins(asked.positions, pins)) {
    // A site changed between the positions and the list (or the map was given other pins): said on the
    // page's timeline, so a slow first paint can be told from a refused index.
    marked('clusters-early-refused');
    return null;
  }
  return asked.answer;
}

function sameOptions(a: ClusterOptions, b: ClusterOptions): boolean {
  return a.radius === b.radius && a.maxZoom === b.maxZoom && a.minPoints === b.minPoints;
}

/** Whether `pins` are, place by place, the positions and marks asked with (read in place: no copy of 50,000). */
function samePins(positions: Positions, pins: readonly Located[]): boolean {
  if (positions.lat.length !== pins.length) return false;
  for (let k = 0; k < pins.length; k++) {
    const pin = pins[k]!;
    if (pin.lat !== positions.lat[k] || pin.lng !== positions.lng[k] || Math.max(0, MARKS.indexOf(pin.mark)) !== positions.marks[k]) return false;
  }
  return true;
}
