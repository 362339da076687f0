// The NMEA 0183 and gpsd JSON decoders on their own: checksums, any talker, fix quality, the no-fix
// stretch of the recorded walk, and hostile input (damaged, over-long, garbage) dropped and counted
// without ever growing a buffer past its bound.
import { describe, expect, it } from 'vitest';
import { GpsdDecoder } from '../../electron/core/gps/gpsd';
import { BoundedLines } from '../../electron/core/gps/lines';
import { NmeaDecoder, parseNmeaSentence } from '../../electron/core/gps/nmea';
import { WALK_FIRST, WALK_LAST, WALK_SENTENCES } from './helpers';

/** A sentence with its checksum, as a receiver would send it. */
function sentence(body: string): string {
  let sum = 0;
  for (const ch of body) sum ^= ch.charCodeAt(0);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

describe('NMEA 0183 sentences', () => {
  it('reads GGA from any talker with its fix quality, satellites, HDOP and altitude', () => {
    for (const talker of ['GP', 'GN', 'GL', 'GA', 'GB']) {
      const parsed = parseNmeaSentence(sentence(`${talker}GGA,123519.00,4807.038,N,01131.000,E,4,12,0.6,545.4,M,46.9,M,,`));
      expect(parsed).toEqual({
        ok: true,
        sentence: { type: 'GGA', talker, time: '12:35:19.00', quality: 4, lat: 48 + 7.038 / 60, lon: 11 + 31 / 60, satellites: 12, hdop: 0.6, altitudeM: 545.4 },
      });
    }
  });

  it('drops a sentence whose checksum does not match, or that has none', () => {
    const good = sentence('GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,');
    expect(parseNmeaSentence(good).ok).toBe(true);
    const flipped = good.replace('4807.038', '4807.039');
    expect(parseNmeaSentence(flipped)).toEqual({ ok: false, reason: 'checksum' });
    expect(parseNmeaSentence(good.slice(0, -3))).toEqual({ ok: false, reason: 'malformed' });
    expect(parseNmeaSentence(`${good.slice(0, -2)}ZZ`)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('drops fields out of range even under a valid checksum', () => {
    expect(parseNmeaSentence(sentence('GPGGA,123519,9107.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,')).ok).toBe(false);
    expect(parseNmeaSentence(sentence('GPGGA,123519,4867.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,')).ok).toBe(false);
    expect(parseNmeaSentence(sentence('GPGGA,123519,4807.038,X,01131.000,E,1,08,0.9,545.4,M,46.9,M,,')).ok).toBe(false);
    expect(parseNmeaSentence(sentence('GPGGA,123519,4807.038,N,01131.000,E,1,08,NaN,545.4,M,46.9,M,,')).ok).toBe(false);
    expect(parseNmeaSentence(sentence('GPRMC,123519,Q,4807.038,N,01131.000,E,,,230394,,')).ok).toBe(false);
  });

  it('says which sentences it does not read instead of calling them damaged', () => {
    expect(parseNmeaSentence(sentence('GPVTG,054.7,T,034.4,M,005.5,N,010.2,K'))).toEqual({ ok: false, reason: 'unsupported' });
    expect(parseNmeaSentence(sentence('PUBX,00,081350.00,4717.113210,N'))).toEqual({ ok: false, reason: 'unsupported' });
  });

  it('counts satellites used from GSA and reads the RMC date', () => {
    expect(parseNmeaSentence(sentence('GNGSA,A,3,01,02,03,04,,,,,,,,,1.8,1.0,1.5'))).toEqual({ ok: true, sentence: { type: 'GSA', talker: 'GN', fixMode: 3, used: 4, hdop: 1 } });
    const rmc = parseNmeaSentence(sentence('GNRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,D'));
    expect(rmc.ok && rmc.sentence.type === 'RMC' && rmc.sentence.date).toBe('2002-12-09');
  });
});

describe('the recorded walk, decoded', () => {
  it('has a valid checksum on every sentence', () => {
    expect(WALK_SENTENCES.length).toBeGreaterThan(100);
    for (const line of WALK_SENTENCES) expect(parseNmeaSentence(line).ok, line).toBe(true);
  });

  it('gives the GPS fix, then no fix under the trees, then a DGPS fix, each with its sky', () => {
    const decoder = new NmeaDecoder();
    const seen: string[] = [];
    let first: { lat: number; lon: number } | null = null;
    let last: { lat: number; lon: number } | null = null;
    for (const line of WALK_SENTENCES) {
      expect(decoder.push(line)).toBe('read');
      const report = decoder.report;
      const kind = report?.kind === 'fix' ? report.position.quality : 'no-fix';
      if (seen.at(-1) !== kind) seen.push(kind);
      if (report?.kind === 'fix') {
        first ??= report.position;
        last = report.position;
      }
      if (line.startsWith('$GPGGA,160005')) {
        expect(decoder.sky).toEqual({ satellites: 9, satellitesSeen: 12, hdop: 1.05 });
        const position = report?.kind === 'fix' ? report.position : null;
        expect(position).toMatchObject({ quality: 'gps', altitudeM: 1513.9, accuracyEstimated: true, fixTime: '2024-05-01T16:00:05.00Z' });
        // gpsd's own estimate for the same sentences (19 m per unit of HDOP).
        expect(position?.accuracyM).toBeCloseTo(19.95, 2);
      }
    }
    expect(seen).toEqual(['gps', 'no-fix', 'dgps']);
    expect(first!.lat).toBeCloseTo(WALK_FIRST.lat, 6);
    expect(first!.lon).toBeCloseTo(WALK_FIRST.lon, 6);
    expect(last!.lat).toBeCloseTo(WALK_LAST.lat, 6);
    expect(last!.lon).toBeCloseTo(WALK_LAST.lon, 6);
    expect(decoder.sky.satellites).toBe(10);
  });

  it('uses a GST error estimate when the receiver sends one', () => {
    const decoder = new NmeaDecoder();
    decoder.push(sentence('GNGST,160000.00,0.9,1.2,0.8,45,0.03,0.04,0.06'));
    decoder.push(sentence('GNGGA,160000.00,4537.80054,N,11101.49919,W,4,18,0.6,1512.4,M,-16.9,M,1.0,0131'));
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { quality: 'rtk-fixed', accuracyM: 0.1, accuracyEstimated: false } });
  });

  it('stops using GST once the receiver stops sending it, and gives a GST sent after GGA to that epoch’s fix', () => {
    const decoder = new NmeaDecoder();
    const gga = (t: string) => sentence(`GPGGA,${t},4537.80054,N,11101.49919,W,1,09,1.0,1512.4,M,-16.9,M,,`);
    decoder.push(gga('160000.00'));
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { accuracyM: 19, accuracyEstimated: true } });
    // GST after the epoch's GGA: that fix takes the receiver's own estimate.
    decoder.push(sentence('GPGST,160000.00,0.9,1.2,0.8,45,0.9,1.2,2.0'));
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { epoch: '16:00:00.00', accuracyM: 3, accuracyEstimated: false } });
    // The next epoch's GGA comes before its GST: the one just before still stands.
    decoder.push(gga('160001.00'));
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { accuracyM: 3, accuracyEstimated: false } });
    // No more GST: two epochs on, the accuracy is HDOP's again, and says so.
    decoder.push(gga('160002.00'));
    decoder.push(gga('160003.00'));
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { accuracyM: 19, accuracyEstimated: true } });
  });

  it('keeps the fix through one GSA per constellation, even when one of them has no fix', () => {
    const decoder = new NmeaDecoder();
    const states: string[] = [];
    for (const t of ['160000.00', '160001.00', '160002.00']) {
      decoder.push(sentence(`GNRMC,${t},A,4537.80054,N,11101.49919,W,0.0,0.0,010524,,,A`));
      decoder.push(sentence(`GNGGA,${t},4537.80054,N,11101.49919,W,1,12,0.8,1512.4,M,-16.9,M,,`));
      states.push(decoder.report!.kind);
      // GPS 3D, GLONASS 3D, Galileo none in view ("no fix" for that system only), BeiDou 3D.
      for (const [id, mode] of [[1, 3], [2, 3], [3, 1], [4, 3]] as const) {
        decoder.push(sentence(`GNGSA,A,${mode},${mode > 1 ? '05,07' : ''},,,,,,,,,,,1.4,0.8,1.1,${id}`));
        states.push(decoder.report!.kind);
      }
    }
    expect(new Set(states)).toEqual(new Set(['fix']));
    // The epoch's best mode is 3D: the fix has its altitude.
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { twoD: false, altitudeM: 1512.4, fixTime: '2024-05-01T16:00:02.00Z' } });
  });
});

describe('hostile input', () => {
  it('drops and counts over-long lines without holding more than the bound', () => {
    const lines: string[] = [];
    let dropped = 0;
    const splitter = new BoundedLines(100, (line) => lines.push(line), () => dropped++);
    splitter.push('$GPGGA,short\r\n');
    for (let i = 0; i < 1000; i++) {
      splitter.push('x'.repeat(997));
      expect(splitter.held).toBeLessThanOrEqual(100);
    }
    splitter.push('tail of the monster\r\n$GPRMC,after\r\n');
    expect(lines).toEqual(['$GPGGA,short', '$GPRMC,after']);
    expect(dropped).toBe(1);
    // A line exactly at the bound still passes; one past it does not.
    splitter.push(`${'y'.repeat(100)}\n${'z'.repeat(101)}\n`);
    expect(lines.at(-1)).toBe('y'.repeat(100));
    expect(dropped).toBe(2);
  });

  it('drops NMEA garbage: binary, embedded NULs, a $ inside a sentence, truncated lines', () => {
    const decoder = new NmeaDecoder();
    const garbage = ['\u0000\u0001\u00ff\u00fe', '$GPGGA,123519,48\u0000', `${sentence('GPGGA,1')}`.replace('1', '$1'), '$GPGGA,123519,4807.038,N,011', '', '*', '$*00', `$${'A'.repeat(600)}*00`];
    for (const line of garbage) expect(decoder.push(line)).toBe('dropped');
    expect(decoder.report).toBeNull();
  });

  it('ignores gpsd messages that are not JSON objects of known shape', () => {
    const decoder = new GpsdDecoder();
    const junk = ['not json', '{"class":', '[1,2,3]', '"TPV"', '{"class":"TPV","mode":"3"}', '{"class":"TPV","mode":3,"lat":"45","lon":-111}', '{"class":"TPV","mode":3,"lat":95,"lon":-111}', '{"nope":1}', `{"class":"SKY","x":"${'a'.repeat(70_000)}"}`];
    for (const line of junk) expect(decoder.push(line), line).toBe('dropped');
    expect(decoder.report).toBeNull();
    expect(decoder.push('{"class":"TPV","mode":3,"status":2,"lat":45.63,"lon":-111.02,"altMSL":1512.4,"eph":3.8,"time":"2024-05-01T16:00:30.000Z"}')).toBe('read');
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { lat: 45.63, lon: -111.02, quality: 'dgps', accuracyM: 3.8, accuracyEstimated: false, altitudeM: 1512.4, twoD: false } });
    expect(decoder.push('{"class":"SKY","hdop":0.8,"nSat":12,"uSat":10}')).toBe('read');
    expect(decoder.sky).toEqual({ satellites: 10, satellitesSeen: 12, hdop: 0.8 });
    // Older gpsd: no uSat/nSat, satellites counted from the list; a partial SKY keeps what was known.
    decoder.push('{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}');
    expect(decoder.sky).toEqual({ satellites: 2, satellitesSeen: 3, hdop: 0.8 });
    decoder.push('{"class":"TPV","mode":1}');
    expect(decoder.report).toEqual({ kind: 'no-fix' });
  });

  it('takes max(epx, epy) when gpsd gives no eph', () => {
    const decoder = new GpsdDecoder();
    decoder.push('{"class":"TPV","mode":2,"lat":45.63,"lon":-111.02,"epx":2.1,"epy":2.3}');
    expect(decoder.report).toMatchObject({ kind: 'fix', position: { accuracyM: 2.3, altitudeM: null, twoD: true, quality: 'gps' } });
  });
});
