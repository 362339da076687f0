// gpsd's JSON protocol (https://gpsd.gitlab.io/gpsd/gpsd_json.html): after `?WATCH=…;` the daemon
// sends one JSON object a line. TPV carries the fix (mode 0/1 none, 2 2D, 3 3D; lat, lon, altMSL or
// alt, eph or epx/epy for the accuracy; status 2 DGPS, 3 RTK fixed, 4 RTK float, 5/6 dead
// reckoning), SKY the HDOP and the satellites (uSat/nSat, or counted from its list on older gpsd),
// DEVICES and DEVICE the receivers attached. Only TPV is the receiver talking: VERSION, DEVICES and
// WATCH are the daemon's own answers. Anything that is not such an object, or has fields of the wrong
// type, is dropped and counted; a figure out of range is dropped from its message and counted (gpsd's
// client library checks none of them: "±1e+300 m", "-5 satellites" and a fix dated 2001 all pass it).
import type { GpsQuality } from '../../shared/contract/gps';
import { ACCURACY_RANGE, ALTITUDE_RANGE, HDOP_RANGE, SATELLITE_RANGE, inRange } from '../../shared/gps/fix-values';
import { accuracyFromHdop, type GpsDecoder, type GpsSky, type LineOutcome, type PositionReport } from './reading';

/** SKY lists every satellite (about 100 bytes each); 64 KiB is far beyond any real sky. */
export const GPSD_MAX_LINE = 64 * 1024;

/** What the client sends once connected: JSON reports, no NMEA, no raw data. */
export const GPSD_WATCH = '?WATCH={"enable":true,"json":true};\n';

const STATUS_QUALITY: Record<number, GpsQuality> = { 2: 'dgps', 3: 'rtk-fixed', 4: 'rtk-float', 5: 'estimated', 6: 'estimated', 7: 'other', 8: 'other' };

export class GpsdDecoder implements GpsDecoder {
  report: PositionReport = null;
  reports = 0;
  sky: GpsSky = { satellites: null, satellitesSeen: null, hdop: null };
  clockMs: number | null = null;
  badValues = 0;
  /** Receivers gpsd has, by path, from DEVICES and DEVICE (null before it said). */
  private paths: Set<string> | null = null;
  private untimed = 0;

  get devices(): number | null {
    return this.paths?.size ?? null;
  }

  push(line: string): LineOutcome {
    const text = line.trim();
    if (text === '') return 'ignored';
    if (text.length > GPSD_MAX_LINE || text[0] !== '{') return 'dropped';
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return 'dropped';
    }
    if (!isRecord(message) || typeof message['class'] !== 'string') return 'dropped';
    switch (message['class']) {
      case 'TPV':
        return this.tpv(message);
      case 'SKY':
        return this.skyReport(message);
      case 'DEVICES': {
        if (!Array.isArray(message['devices'])) return 'dropped';
        this.paths = new Set(message['devices'].filter(isRecord).map((d, i) => (typeof d['path'] === 'string' ? d['path'] : `#${i}`)));
        return 'read';
      }
      case 'DEVICE': {
        // gpsd announces a receiver it opens, and one it closes with "activated": 0.
        const path = message['path'];
        if (typeof path !== 'string') return 'read';
        this.paths ??= new Set();
        if (message['activated'] === 0) this.paths.delete(path);
        else this.paths.add(path);
        return 'read';
      }
      case 'VERSION':
      case 'WATCH':
        return 'read';
      default:
        return 'ignored';
    }
  }

  private tpv(m: Record<string, unknown>): LineOutcome {
    const mode = m['mode'];
    if (typeof mode !== 'number') return 'dropped';
    // A TPV comes from a receiver, whatever it says: gpsd knows it has one.
    if (typeof m['device'] === 'string') (this.paths ??= new Set()).add(m['device']);
    const time = this.time(m['time']);
    if (mode < 2) {
      this.setReport({ kind: 'no-fix' });
      return 'read';
    }
    // gpsd may report a mode before it has the position of the epoch: nothing to show yet, nothing wrong.
    if (m['lat'] === undefined && m['lon'] === undefined) return 'ignored';
    const lat = finite(m['lat']);
    const lon = finite(m['lon']);
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) return 'dropped';
    const status = finite(m['status']);
    const quality = (status !== null ? STATUS_QUALITY[status] : undefined) ?? 'gps';
    const bad = () => this.badValues++;
    const accuracy = (key: string) => inRange(m[key], ACCURACY_RANGE, bad, { aboveMin: true });
    const eph = accuracy('eph');
    const epx = accuracy('epx');
    const epy = accuracy('epy');
    // epx/epy are 95 % per axis; their larger one is what eph would be when gpsd gives none.
    const reported = eph ?? (epx !== null && epy !== null ? Math.max(epx, epy) : null);
    const accuracyM = reported ?? accuracyFromHdop(this.sky.hdop, quality);
    const altitudeM = mode === 3 ? inRange(m['altMSL'], ALTITUDE_RANGE, bad) ?? inRange(m['alt'], ALTITUDE_RANGE, bad) : null;
    const epoch = time ?? `#${++this.untimed}`;
    this.setReport({ kind: 'fix', position: { lat, lon, altitudeM, accuracyM, accuracyEstimated: reported === null && accuracyM !== null, quality, twoD: mode === 2, fixTime: time, epoch } });
    return 'read';
  }

  /** The receiver's time as ISO 8601, advancing the receiver's clock; a time that is not one is dropped and counted. */
  private time(value: unknown): string | null {
    if (value === undefined) return null;
    const ms = typeof value === 'string' && value.length <= 40 ? Date.parse(value) : Number.NaN;
    if (!Number.isFinite(ms)) {
      this.badValues++;
      return null;
    }
    // The latest time stated, not the greatest: one hostile date far ahead cannot make every later fix look old.
    this.clockMs = ms;
    return new Date(ms).toISOString();
  }

  private skyReport(m: Record<string, unknown>): LineOutcome {
    const bad = () => this.badValues++;
    const count = (key: string) => inRange(m[key], SATELLITE_RANGE, bad, { integer: true });
    const list = Array.isArray(m['satellites']) ? m['satellites'].filter(isRecord) : null;
    const used = count('uSat') ?? (list ? list.filter((s) => s['used'] === true).length : null);
    const seen = count('nSat') ?? (list ? list.length : null);
    const hdop = inRange(m['hdop'], HDOP_RANGE, bad);
    // SKY is stamped with the receiver's epoch too: its clock moves on even when no new fix comes.
    this.time(m['time']);
    // gpsd sends a SKY with only some fields between full ones: keep what the last full one said.
    this.sky = {
      satellites: used ?? this.sky.satellites,
      satellitesSeen: seen ?? this.sky.satellitesSeen,
      hdop: hdop ?? this.sky.hdop,
    };
    return 'read';
  }

  private setReport(report: PositionReport): void {
    this.report = report;
    this.reports++;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
