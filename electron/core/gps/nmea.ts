// NMEA 0183 sentences from a receiver (any talker: GP, GN, GL, GA, GB…): GGA for the fix (quality,
// satellites used, HDOP, altitude), RMC for the date and a position when GGA is missing, GSA for 2D/3D
// and HDOP, GST for a receiver's own error estimate, GSV for satellites in view. Hand-written rather
// than a library: five fixed-field sentences are a few dozen lines, and a field tool reading a socket
// needs exact control over what is dropped (every checksum is verified; a bad or missing one, a
// non-ASCII byte or an out-of-range field drops the sentence and counts it) — the npm parsers
// either throw on unknown input or skip checksum failures silently.
import { accuracyFromHdop, type GpsDecoder, type GpsPosition, type GpsSky, type LineOutcome, type PositionReport } from './reading';
import type { GpsQuality } from '../../shared/contract/gps';

/** The standard allows 82 characters; some receivers send longer proprietary lines. Longer is hostile. */
export const NMEA_MAX_LINE = 512;

export type NmeaSentence =
  | { type: 'GGA'; talker: string; time: string | null; quality: number; lat: number | null; lon: number | null; satellites: number | null; hdop: number | null; altitudeM: number | null }
  | { type: 'RMC'; talker: string; time: string | null; valid: boolean; lat: number | null; lon: number | null; date: string | null; mode: string | null }
  | { type: 'GSA'; talker: string; fixMode: number; used: number; hdop: number | null }
  | { type: 'GST'; talker: string; time: string | null; latErrM: number | null; lonErrM: number | null }
  | { type: 'GSV'; talker: string; inView: number | null };

export type NmeaParse = { ok: true; sentence: NmeaSentence } | { ok: false; reason: 'checksum' | 'malformed' | 'unsupported' };

const SHAPE = /^\$([A-Z]{2})([A-Z]{3}),([\x20-\x7e]*)\*([0-9A-Fa-f]{2})$/;

/** One sentence, checksum verified. 'unsupported' is a valid sentence of a type not read here. */
export function parseNmeaSentence(line: string): NmeaParse {
  const text = line.replace(/\r?\n?$/, '').replace(/\r$/, '');
  if (text.length > NMEA_MAX_LINE) return { ok: false, reason: 'malformed' };
  const star = text.lastIndexOf('*');
  if (text[0] !== '$' || star < 0) return { ok: false, reason: 'malformed' };
  let sum = 0;
  for (let i = 1; i < star; i++) sum ^= text.charCodeAt(i);
  const given = Number.parseInt(text.slice(star + 1, star + 3), 16);
  if (!/^[0-9A-Fa-f]{2}$/.test(text.slice(star + 1))) return { ok: false, reason: 'malformed' };
  if (given !== sum) return { ok: false, reason: 'checksum' };
  const match = SHAPE.exec(text);
  if (!match) return text.startsWith('$P') ? { ok: false, reason: 'unsupported' } : { ok: false, reason: 'malformed' };
  const [, talker, type, rest] = match as unknown as [string, string, string, string];
  if (rest.includes('$') || rest.includes('*')) return { ok: false, reason: 'malformed' };
  const f = rest.split(',');
  try {
    switch (type) {
      case 'GGA': {
        const quality = int(f[5], 0, 9);
        if (quality === null) return { ok: false, reason: 'malformed' };
        const pos = quality > 0 ? latLon(f[1], f[2], f[3], f[4]) : null;
        if (quality > 0 && !pos) return { ok: false, reason: 'malformed' };
        return {
          ok: true,
          sentence: { type, talker, time: time(f[0]), quality, lat: pos?.lat ?? null, lon: pos?.lon ?? null, satellites: int(f[6], 0, 99), hdop: num(f[7], 0, 100), altitudeM: num(f[8], -1000, 100_000) },
        };
      }
      case 'RMC': {
        const valid = f[1] === 'A';
        if (f[1] !== 'A' && f[1] !== 'V') return { ok: false, reason: 'malformed' };
        const pos = valid ? latLon(f[2], f[3], f[4], f[5]) : null;
        if (valid && !pos) return { ok: false, reason: 'malformed' };
        const mode = f[11] && /^[A-Z]$/.test(f[11]) ? f[11] : null;
        return { ok: true, sentence: { type, talker, time: time(f[0]), valid: valid && mode !== 'N', lat: pos?.lat ?? null, lon: pos?.lon ?? null, date: date(f[8]), mode } };
      }
      case 'GSA': {
        const fixMode = int(f[1], 1, 3);
        if (fixMode === null) return { ok: false, reason: 'malformed' };
        const used = f.slice(2, 14).filter((x) => /^\d{1,3}$/.test(x)).length;
        return { ok: true, sentence: { type, talker, fixMode, used, hdop: num(f[15], 0, 100) } };
      }
      case 'GST':
        return { ok: true, sentence: { type, talker, time: time(f[0]), latErrM: num(f[5], 0, 100_000), lonErrM: num(f[6], 0, 100_000) } };
      case 'GSV':
        return { ok: true, sentence: { type, talker, inView: int(f[2], 0, 255) } };
      default:
        return { ok: false, reason: 'unsupported' };
    }
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}

/** A field that is there but not a number of the expected range makes the sentence malformed. */
function num(field: string | undefined, min: number, max: number): number | null {
  if (field === undefined || field === '') return null;
  if (!/^-?\d+(\.\d+)?$/.test(field)) throw new Error('not a number');
  const value = Number(field);
  if (value < min || value > max) throw new Error('out of range');
  return value;
}

function int(field: string | undefined, min: number, max: number): number | null {
  const value = num(field, min, max);
  if (value !== null && !Number.isInteger(value)) throw new Error('not whole');
  return value;
}

function latLon(lat: string | undefined, ns: string | undefined, lon: string | undefined, ew: string | undefined): { lat: number; lon: number } | null {
  const a = degrees(lat, 2, 90);
  const b = degrees(lon, 3, 180);
  if (a === null || b === null || (ns !== 'N' && ns !== 'S') || (ew !== 'E' && ew !== 'W')) return null;
  return { lat: ns === 'S' ? -a : a, lon: ew === 'W' ? -b : b };
}

/** ddmm.mmmm / dddmm.mmmm to decimal degrees. */
function degrees(field: string | undefined, degreeDigits: number, max: number): number | null {
  if (!field || !new RegExp(`^\\d{${degreeDigits}}\\d{2}(\\.\\d+)?$`).test(field)) return null;
  const deg = Number(field.slice(0, degreeDigits));
  const min = Number(field.slice(degreeDigits));
  if (min >= 60) return null;
  const value = deg + min / 60;
  return value > max ? null : value;
}

function time(field: string | undefined): string | null {
  const m = field ? /^(\d{2})(\d{2})(\d{2})(\.\d+)?$/.exec(field) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3]) > 60) return null;
  return `${m[1]}:${m[2]}:${m[3]}${m[4] ? m[4].slice(0, 4) : ''}`;
}

function date(field: string | undefined): string | null {
  const m = field ? /^(\d{2})(\d{2})(\d{2})$/.exec(field) : null;
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 31 || Number(m[2]) < 1 || Number(m[2]) > 12) return null;
  // Two-digit years: NMEA 0183 receivers in use today are all after 2000.
  return `20${m[3]}-${m[2]}-${m[1]}`;
}

const GGA_QUALITY: Record<number, GpsQuality> = { 1: 'gps', 2: 'dgps', 3: 'other', 4: 'rtk-fixed', 5: 'rtk-float', 6: 'estimated', 7: 'other', 8: 'other' };
const RMC_MODE: Record<string, GpsQuality> = { A: 'gps', D: 'dgps', E: 'estimated', F: 'rtk-float', R: 'rtk-fixed', P: 'gps', M: 'other', S: 'other' };

/**
 * Keeps the receiver's latest fix from a stream of sentences. An epoch is the set of sentences that
 * share a time of day (GGA and RMC carry it): GSA and GST are joined to the epoch they arrive in, so
 * a GST from an epoch long gone (the receiver stopped sending it) no longer gives the accuracy, and
 * one GSA per constellation (one of them "no fix": no satellites of that system) cannot flap the fix —
 * the epoch's best mode counts, and only GGA and RMC say whether there is a fix.
 */
export class NmeaDecoder implements GpsDecoder {
  report: PositionReport = null;
  reports = 0;
  clockMs: number | null = null;
  readonly badValues = 0;
  readonly devices = null;
  private date: string | null = null;
  /** Time of day of the current epoch, and how many epochs have begun. */
  private epochTime: string | null = null;
  private epochIndex = 0;
  /** The best GSA mode of the current epoch, and of the one before (GSA may come before or after GGA). */
  private gsaMode: { epoch: number; mode: number } | null = null;
  private ggaQuality: GpsQuality | null = null;
  private hdop: number | null = null;
  private satellites: number | null = null;
  private inView = new Map<string, number>();
  private gst: { accuracyM: number; epoch: number } | null = null;

  get sky(): GpsSky {
    const seen = this.inView.size > 0 ? [...this.inView.values()].reduce((a, b) => a + b, 0) : null;
    return { satellites: this.satellites, satellitesSeen: seen, hdop: this.hdop };
  }

  push(line: string): LineOutcome {
    const parsed = parseNmeaSentence(line);
    if (!parsed.ok) return parsed.reason === 'unsupported' ? 'ignored' : 'dropped';
    const s = parsed.sentence;
    switch (s.type) {
      case 'GGA':
        this.enterEpoch(s.time);
        this.satellites = s.satellites;
        if (s.hdop !== null) this.hdop = s.quality > 0 ? s.hdop : null;
        if (s.quality === 0 || s.lat === null || s.lon === null) {
          this.ggaQuality = null;
          this.setReport({ kind: 'no-fix' });
        } else {
          this.ggaQuality = GGA_QUALITY[s.quality] ?? 'other';
          this.setFix(s.lat, s.lon, this.ggaQuality, s.altitudeM, s.time);
        }
        break;
      case 'RMC':
        if (s.date) this.date = s.date;
        this.enterEpoch(s.time);
        if (!s.valid || s.lat === null || s.lon === null) this.setReport({ kind: 'no-fix' });
        else {
          const previous = this.report?.kind === 'fix' ? this.report.position : null;
          // RMC has no altitude: keep GGA's (same epoch) so the two do not flicker between 2D and 3D.
          const quality = this.ggaQuality ?? (s.mode ? RMC_MODE[s.mode] : undefined) ?? 'gps';
          this.setFix(s.lat, s.lon, quality, previous?.altitudeM ?? null, s.time);
        }
        break;
      case 'GSA':
        // One GSA per constellation: the epoch's best mode holds; a "no fix" for one system is not the receiver's.
        if (this.gsaMode?.epoch === this.epochIndex) this.gsaMode.mode = Math.max(this.gsaMode.mode, s.fixMode);
        else this.gsaMode = { epoch: this.epochIndex, mode: s.fixMode };
        if (s.hdop !== null && s.fixMode > 1) this.hdop = s.hdop;
        break;
      case 'GST': {
        this.enterEpoch(s.time);
        // GST gives 1-sigma errors in latitude and longitude; 2DRMS is about 95 %, like gpsd's eph.
        this.gst = s.latErrM !== null && s.lonErrM !== null ? { accuracyM: Math.round(2 * Math.hypot(s.latErrM, s.lonErrM) * 100) / 100, epoch: this.epochIndex } : null;
        // Most receivers send GST after the epoch's GGA: the fix already reported gets its accuracy now.
        const current = this.report?.kind === 'fix' ? this.report.position : null;
        if (this.gst && current && current.epoch === this.epochName()) {
          this.setReport({ kind: 'fix', position: { ...current, accuracyM: this.gst.accuracyM, accuracyEstimated: false } });
        }
        break;
      }
      case 'GSV':
        if (s.inView !== null) this.inView.set(s.talker, s.inView);
        break;
    }
    return 'read';
  }

  /** A sentence with a time of day different from the current epoch's begins a new epoch. */
  private enterEpoch(at: string | null): void {
    if (at === null || at === this.epochTime) return;
    this.epochTime = at;
    this.epochIndex++;
    if (this.date) {
      const ms = Date.parse(`${this.date}T${at}Z`);
      if (Number.isFinite(ms)) this.clockMs = ms;
    }
  }

  private epochName(): string {
    return this.epochTime ?? `#${this.epochIndex}`;
  }

  private setFix(lat: number, lon: number, quality: GpsQuality, altitudeM: number | null, at: string | null): void {
    if (at === null) this.epochIndex++;
    // The GST of this epoch or the one just before (sent after its GGA); an older one is stale.
    const fromGst = this.gst && this.epochIndex - this.gst.epoch <= 1 ? this.gst.accuracyM : null;
    const gsa = this.gsaMode && this.epochIndex - this.gsaMode.epoch <= 1 ? this.gsaMode.mode : null;
    const position: GpsPosition = {
      lat,
      lon,
      altitudeM,
      accuracyM: fromGst ?? accuracyFromHdop(this.hdop, quality),
      accuracyEstimated: fromGst === null,
      quality,
      twoD: gsa === 2 || altitudeM === null,
      fixTime: at && this.date ? `${this.date}T${at}Z` : null,
      epoch: at ?? `#${this.epochIndex}`,
    };
    this.setReport({ kind: 'fix', position });
  }

  private setReport(report: PositionReport): void {
    this.report = report;
    this.reports++;
  }
}
