// gpsd's JSON protocol (https://gpsd.gitlab.io/gpsd/gpsd_json.html): after `?WATCH=…;` the daemon
// sends one JSON object a line. TPV carries the fix (mode 0/1 none, 2 2D, 3 3D; lat, lon, altMSL or
// alt, eph or epx/epy for the accuracy; status 2 DGPS, 3 RTK fixed, 4 RTK float, 5/6 dead
// reckoning), SKY the HDOP and the satellites (uSat/nSat, or counted from its list on older gpsd).
// Anything that is not such an object, or has fields of the wrong type, is dropped and counted.
import type { GpsQuality } from '../../shared/contract/gps';
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
  /** Devices gpsd says it has, from DEVICES (null before it said). */
  devices: number | null = null;

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
      case 'DEVICES':
        this.devices = Array.isArray(message['devices']) ? message['devices'].length : null;
        return 'read';
      case 'VERSION':
      case 'WATCH':
      case 'DEVICE':
        return 'read';
      default:
        return 'ignored';
    }
  }

  private tpv(m: Record<string, unknown>): LineOutcome {
    const mode = m['mode'];
    if (typeof mode !== 'number') return 'dropped';
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
    const eph = finite(m['eph']);
    const epx = finite(m['epx']);
    const epy = finite(m['epy']);
    const reported = eph ?? (epx !== null && epy !== null ? Math.max(epx, epy) : null);
    const accuracyM = reported ?? accuracyFromHdop(this.sky.hdop, quality);
    const altitudeM = mode === 3 ? finite(m['altMSL']) ?? finite(m['alt']) : null;
    const time = typeof m['time'] === 'string' && m['time'].length <= 40 && !Number.isNaN(Date.parse(m['time'])) ? new Date(m['time']).toISOString() : null;
    this.setReport({ kind: 'fix', position: { lat, lon, altitudeM, accuracyM, accuracyEstimated: reported === null && accuracyM !== null, quality, twoD: mode === 2, fixTime: time } });
    return 'read';
  }

  private skyReport(m: Record<string, unknown>): LineOutcome {
    const list = Array.isArray(m['satellites']) ? m['satellites'].filter(isRecord) : null;
    const used = finite(m['uSat']) ?? (list ? list.filter((s) => s['used'] === true).length : null);
    const seen = finite(m['nSat']) ?? (list ? list.length : null);
    const hdop = finite(m['hdop']);
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
