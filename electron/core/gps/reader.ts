// Reads a GPS receiver over TCP for "My location": gpsd's JSON or a raw NMEA 0183 stream, chosen in
// Settings and read here in the host (the page never opens a socket). One reader per setting; the
// host makes a new one when the source, host or port change.
//
//   connecting ──refused/timeout──► unreachable ──(retry, backoff)──► connecting
//       │ connected                                                       ▲
//       ▼                                                                 │ closed / link dead
//   (waiting) ──gpsd lists no receiver──► no-receiver                     │
//       │                                                                 │
//       ├──no position report for silentMs, whatever else comes──► silent ┤ (kept across a reconnect)
//       │ a report (fix or "no fix") from the receiver                    │
//       ▼                                                                 │
//     no-fix ◄──"no fix", or a fix old or contradicting itself──► fix
//
// Only the receiver's position reports (NMEA GGA/RMC, gpsd TPV) count as the receiver talking:
// gpsd's VERSION/DEVICES/WATCH on a fresh connection are the daemon, not the receiver. Views go out
// on change, at most one per `minEmitMs`; the last change is never lost (a trailing emit follows).
// Input is bounded (BoundedLines) and every line or figure that is not understood is counted.
import { connect, type Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { GPS_QUALITY_LABELS, type GpsFixView, type GpsState, type GpsView } from '../../shared/contract/gps';
import type { GpsSourceKind } from '../../shared/domain';
import { GpsdDecoder, GPSD_MAX_LINE, GPSD_WATCH } from './gpsd';
import { BoundedLines } from './lines';
import { NmeaDecoder, NMEA_MAX_LINE } from './nmea';
import type { GpsDecoder } from './reading';
import { fixProblem } from '../../shared/gps/fix-judge';

export type GpsReaderView = Omit<GpsView, 'revision'>;

export interface GpsReaderOptions {
  source: GpsSourceKind;
  host: string;
  port: number;
  onView: (view: GpsReaderView) => void;
  /** No position report from the receiver for this long: 'silent'. */
  silentMs?: number;
  /** Reconnect delays: from retryMinMs, doubling, up to retryMaxMs. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** A connection attempt that takes longer counts as unreachable. */
  connectTimeoutMs?: number;
  /** Nothing readable this long: the connection is dropped and opened again (a half-open TCP link never errors). */
  reconnectSilentMs?: number;
  /** At most one view per this many ms (about 4 a second). */
  minEmitMs?: number;
}

const DEFAULTS = { silentMs: 5_000, retryMinMs: 500, retryMaxMs: 5_000, connectTimeoutMs: 5_000, reconnectSilentMs: 15_000, minEmitMs: 250 };

type Link = { kind: 'connecting' } | { kind: 'unreachable'; why: string } | { kind: 'closed' } | { kind: 'open'; since: number };

export class GpsReader {
  private readonly options: Required<Omit<GpsReaderOptions, 'onView'>> & Pick<GpsReaderOptions, 'onView'>;
  private socket: Socket | null = null;
  private link: Link = { kind: 'connecting' };
  private decoder: GpsDecoder;
  private lines: BoundedLines;
  private text = new StringDecoder('latin1');
  private attempts = 0;
  private lastBytesAt: number | null = null;
  private lastValidAt: number | null = null;
  private lastReportAt: number | null = null;
  private reportsSeen = 0;
  private counts = { read: 0, dropped: 0, badValues: 0 };
  /** The current decoder's bad values already added to counts. */
  private badSeen = 0;
  /** The receiver was silent when the link was dropped: a new link stays "silent" until it reports. */
  private silentCarry = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private emitTimer: ReturnType<typeof setTimeout> | null = null;
  private lastEmitAt = 0;
  private lastEmitted = '';
  private current: GpsReaderView;
  private closed = false;
  private fixView: GpsFixView | null = null;

  constructor(options: GpsReaderOptions) {
    this.options = { ...DEFAULTS, ...options };
    this.decoder = this.newDecoder();
    this.lines = this.newLines();
    this.current = this.compute();
  }

  get endpoint(): string {
    const host = this.options.host.includes(':') && !this.options.host.startsWith('[') ? `[${this.options.host}]` : this.options.host;
    return `${host}:${this.options.port}`;
  }

  /** Starts reading (for 'gpsd' and 'nmea'; the others only report their state) and emits the first view. */
  start(): void {
    if (this.isNetwork()) {
      this.open();
      this.tickTimer = setInterval(() => this.refresh(), Math.min(250, this.options.silentMs / 4));
      this.tickTimer.unref?.();
    }
    this.refresh(true);
  }

  view(): GpsReaderView {
    return this.current;
  }

  close(): void {
    this.closed = true;
    for (const timer of [this.retryTimer, this.emitTimer]) if (timer) clearTimeout(timer);
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.socket?.destroy();
    this.socket = null;
  }

  private isNetwork(): boolean {
    return this.options.source === 'gpsd' || this.options.source === 'nmea';
  }

  private newDecoder(): GpsDecoder {
    return this.options.source === 'gpsd' ? new GpsdDecoder() : new NmeaDecoder();
  }

  private newLines(): BoundedLines {
    return new BoundedLines(
      this.options.source === 'gpsd' ? GPSD_MAX_LINE : NMEA_MAX_LINE,
      (line) => this.onLine(line),
      () => this.counts.dropped++,
    );
  }

  private open(): void {
    if (this.closed) return;
    this.link = { kind: 'connecting' };
    this.lines.reset();
    this.text = new StringDecoder(this.options.source === 'gpsd' ? 'utf8' : 'latin1');
    const socket = connect({ host: this.options.host, port: this.options.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(this.options.connectTimeoutMs);
    socket.on('timeout', () => {
      if (this.link.kind === 'connecting') socket.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }));
    });
    socket.on('connect', () => {
      if (this.socket !== socket) return;
      socket.setTimeout(0);
      this.link = { kind: 'open', since: Date.now() };
      this.lastValidAt = null;
      this.lastBytesAt = null;
      // A new connection starts from nothing: a fix from before the drop is not brought back by the
      // first line of the new one (gpsd's VERSION, say) that carries no position.
      this.decoder = this.newDecoder();
      this.badSeen = 0;
      this.lastReportAt = null;
      this.reportsSeen = 0;
      this.fixView = null;
      if (this.options.source === 'gpsd') socket.write(GPSD_WATCH);
      this.refresh();
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket !== socket) return;
      this.lastBytesAt = Date.now();
      this.lines.push(this.text.write(chunk));
      this.refresh();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (this.socket !== socket) return;
      if (this.link.kind === 'connecting') this.link = { kind: 'unreachable', why: this.unreachableWhy(error) };
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.current.state === 'silent') this.silentCarry = true;
      if (this.link.kind === 'open') this.link = { kind: 'closed' };
      else if (this.link.kind === 'connecting') this.link = { kind: 'unreachable', why: `${this.endpoint} closed the connection at once.` };
      this.refresh();
      this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    const delay = Math.min(this.options.retryMaxMs, this.options.retryMinMs * 2 ** Math.min(this.attempts, 16));
    this.attempts++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
    this.retryTimer.unref?.();
  }

  private onLine(line: string): void {
    const outcome = this.decoder.push(line);
    if (outcome === 'dropped') {
      this.counts.dropped++;
      return;
    }
    this.counts.read++;
    this.counts.badValues += this.decoder.badValues - this.badSeen;
    this.badSeen = this.decoder.badValues;
    this.lastValidAt = Date.now();
    // Readable data: the link works, so the next outage starts again from the shortest delay.
    this.attempts = 0;
    if (this.decoder.reports !== this.reportsSeen) {
      this.reportsSeen = this.decoder.reports;
      this.lastReportAt = this.lastValidAt;
      this.silentCarry = false;
      const report = this.decoder.report;
      this.fixView = report?.kind === 'fix' ? this.toFixView() : null;
    }
  }

  private toFixView(): GpsFixView | null {
    const report = this.decoder.report;
    if (report?.kind !== 'fix') return null;
    const p = report.position;
    const sky = this.decoder.sky;
    return {
      lat: p.lat,
      lon: p.lon,
      accuracyM: p.accuracyM,
      accuracyEstimated: p.accuracyEstimated,
      altitudeM: p.altitudeM,
      quality: p.quality,
      qualityLabel: GPS_QUALITY_LABELS[p.quality] + (p.twoD ? ' (2D, no altitude)' : ''),
      satellites: sky.satellites,
      satellitesSeen: sky.satellitesSeen,
      hdop: sky.hdop,
      fixTime: p.fixTime,
      receivedAt: new Date(this.lastReportAt ?? Date.now()).toISOString(),
      epoch: p.epoch,
    };
  }

  private unreachableWhy(error: NodeJS.ErrnoException): string {
    const where = this.endpoint;
    const what = this.options.source === 'gpsd' ? 'gpsd' : 'the NMEA stream’s server';
    switch (error.code) {
      case 'ECONNREFUSED':
        return `Nothing answers at ${where} (connection refused): is ${what} running there?`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `The receiver’s host name “${this.options.host}” cannot be found.`;
      case 'ETIMEDOUT':
        return `${where} does not answer (timed out).`;
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `${where} cannot be reached from this computer (no route).`;
      default:
        return `${where} cannot be reached (${String(error.code ?? error.message).slice(0, 60)}).`;
    }
  }

  /** Works out the state now; emits it if it changed (throttled). */
  private refresh(force = false): void {
    if (this.closed) return;
    const now = Date.now();
    const view = this.compute(now);
    // A long silence on an open link: drop it and reconnect (a half-open TCP link never errors).
    if (this.link.kind === 'open' && this.socket && now - (this.lastValidAt ?? this.link.since) >= this.options.reconnectSilentMs) {
      this.socket.destroy();
    }
    this.current = view;
    const key = JSON.stringify(view);
    if (key === this.lastEmitted && !force) return;
    const wait = this.lastEmitAt + this.options.minEmitMs - now;
    if (wait > 0 && !force) {
      this.emitTimer ??= setTimeout(() => {
        this.emitTimer = null;
        this.refresh();
      }, wait);
      return;
    }
    this.lastEmitAt = now;
    this.lastEmitted = key;
    this.options.onView(view);
  }

  private compute(now = Date.now()): GpsReaderView {
    const base = { source: this.options.source, endpoint: this.isNetwork() ? this.endpoint : null, counts: { ...this.counts } };
    const say = (state: GpsState, message: string, fix: GpsFixView | null = null): GpsReaderView => ({ ...base, state, message, fix });
    if (this.options.source === 'off') return { ...say('off', 'My location is off. Choose where the position comes from in Settings, under Position.'), endpoint: null };
    if (this.options.source === 'device') return { ...say('device', 'My location uses this device’s location service.'), endpoint: null };

    const name = this.options.source === 'gpsd' ? `gpsd at ${this.endpoint}` : `the NMEA stream at ${this.endpoint}`;
    const seconds = Math.round(this.options.silentMs / 1000);
    const previous = this.current?.state;
    const link = this.link;
    if (link.kind === 'unreachable') return say('unreachable', `${link.why} Sitewalk keeps trying.`);
    if (link.kind === 'connecting' || link.kind === 'closed') {
      // While retrying after an outage, keep saying what the outage was rather than flickering.
      if (previous === 'silent' || previous === 'unreachable') return this.current;
      return say('connecting', link.kind === 'closed' ? `The connection to ${name} closed; reconnecting…` : `Connecting to ${name}…`);
    }
    const decoder = this.decoder;
    if (decoder.devices === 0) {
      return say('no-receiver', `${name} answers, but no GPS receiver is attached to it. Check the receiver’s cable and that gpsd was started with its device (gpsd /dev/ttyACM0, or gpsdctl add).`);
    }
    const sinceReport = now - (this.lastReportAt ?? link.since);
    if (this.silentCarry || sinceReport >= this.options.silentMs) {
      const quiet = `for ${seconds} seconds`;
      if (this.lastBytesAt !== null && now - this.lastBytesAt < this.options.silentMs && (this.lastValidAt === null || now - this.lastValidAt >= this.options.silentMs)) {
        return say('silent', `${cap(name)} sends data Sitewalk cannot read (no valid ${this.options.source === 'gpsd' ? 'gpsd report' : 'NMEA sentence'} ${quiet}).`);
      }
      // gpsd greeted on this link (it is there), or NMEA sentences still come: it is the receiver that says nothing.
      if (this.lastValidAt !== null && (this.options.source === 'gpsd' || now - this.lastValidAt < this.options.silentMs)) {
        const daemon = this.options.source === 'gpsd' ? `gpsd at ${this.endpoint} answers, but the receiver` : `the NMEA stream at ${this.endpoint} sends sentences, but the receiver`;
        return say('silent', `The receiver is silent: ${daemon} has sent no position report ${quiet}. Is its cable plugged in and the receiver switched on?`);
      }
      return say('silent', `The receiver is silent: ${name} has sent nothing ${quiet}. Is it plugged in and switched on?`);
    }
    if (this.lastReportAt === null) return say('connecting', `Connected to ${name}; waiting for the receiver…`);
    if (this.fixView) {
      const fix = { ...this.fixView, satellites: decoder.sky.satellites ?? this.fixView.satellites, satellitesSeen: decoder.sky.satellitesSeen ?? this.fixView.satellitesSeen, hdop: decoder.sky.hdop ?? this.fixView.hdop };
      // The host's clock plays no part here: a fix with no receiver time is as old as the last report, and
      // a receiver that stopped reporting is 'silent' (never 'no fix') once silentMs have passed.
      const problem = fixProblem(fix, decoder.clockMs, this.lastReportAt ?? now);
      if (problem === null) return say('fix', `Position from ${name}.`, fix);
      return say('no-fix', `No position: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`);
    }
    const seen = decoder.sky.satellitesSeen;
    return say('no-fix', `No position: the receiver is sending but has no fix${seen !== null ? ` (${seen} satellite${seen === 1 ? '' : 's'} in view)` : ''}. It needs a clear view of the sky.`);
  }
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
