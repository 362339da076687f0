// The averaging behind "Stake here", on the stationary fixtures decoded sentence by sentence as the
// reader decodes them: each epoch counted once however many sentences report it, the mean of 60
// fixes within a metre of the true point while single fixes wander up to 3 m, a bad stretch skipped
// and counted, and the spread in metres east and north.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NmeaDecoder } from '../../electron/core/gps/nmea';
import { GPS_QUALITY_LABELS, type GpsFixView } from '../../electron/shared/contract/gps';
import { addFix, distanceM, meanAndOffsets, startAveraging, summarize } from '../../electron/shared/gps/averaging';
import { judgeGate } from '../../electron/shared/gps/gate';
import { TRUE_POINT } from '../fixtures/gps/make-stationary';

/** Every fix report the decoder makes from a fixture, as the reader would show it. */
function fixesOf(name: string): GpsFixView[] {
  const text = readFileSync(new URL(`../fixtures/gps/${name}`, import.meta.url), 'latin1');
  const decoder = new NmeaDecoder();
  const fixes: GpsFixView[] = [];
  let seen = 0;
  for (const line of text.split('\r\n').filter(Boolean)) {
    decoder.push(line);
    if (decoder.reports === seen) continue;
    seen = decoder.reports;
    const report = decoder.report;
    if (report?.kind !== 'fix') continue;
    const p = report.position;
    fixes.push({ ...p, qualityLabel: GPS_QUALITY_LABELS[p.quality], ...decoder.sky, receivedAt: new Date().toISOString() });
  }
  return fixes;
}

describe('averaging fixes into a tower position', () => {
  it('gives a mean within 1 m of the true point from 60 fixes that each wander up to 3 m', () => {
    const fixes = fixesOf('stationary-gst.nmea');
    // RMC, GGA and GST each report the epoch: three reports, one epoch.
    expect(fixes.length).toBeGreaterThan(180);
    let state = startAveraging({ kind: 'count', fixes: 60 }, 5, 0);
    for (const fix of fixes) if (!summarize(state, 0).done) state = addFix(state, fix);
    const summary = summarize(state, 0);
    expect(summary).toMatchObject({ kept: 60, skipped: 0, done: true, accuracyEstimated: false });
    expect(summary.accuracyM).toBeCloseTo(3.11, 2);
    const single = fixes.slice(0, 180).map((f) => distanceM(TRUE_POINT, f));
    expect(Math.max(...single)).toBeGreaterThan(2.5);
    expect(Math.max(...single)).toBeLessThan(4.2);
    expect(distanceM(TRUE_POINT, { lat: summary.lat!, lon: summary.lon! })).toBeLessThan(1);
    // Uniform within ±2.9 m: a standard deviation of about 2.9 / √3 = 1.7 m each way.
    expect(summary.spreadEastM).toBeGreaterThan(1.2);
    expect(summary.spreadEastM).toBeLessThan(2.2);
    expect(summary.spreadNorthM).toBeGreaterThan(1.2);
    expect(summary.spreadNorthM).toBeLessThan(2.2);
  });

  it('skips and counts the fixes of a bad stretch, and never averages them', () => {
    const fixes = fixesOf('stationary-bad-stretch.nmea');
    let state = startAveraging({ kind: 'count', fixes: 60 }, 5, 0);
    for (const fix of fixes) if (!summarize(state, 0).done) state = addFix(state, fix);
    const summary = summarize(state, 0);
    // The 15 epochs of multipath (±17 m by GST) in the first 75: skipped, the goal met after them.
    expect(summary).toMatchObject({ kept: 60, skipped: 15, done: true });
    expect(distanceM(TRUE_POINT, { lat: summary.lat!, lon: summary.lon! })).toBeLessThan(1);
    // Averaged with them, the mean would be off by more.
    const all = meanAndOffsets(fixes.filter((f, i, list) => list.findLastIndex((g) => g.epoch === f.epoch) === i).slice(0, 75));
    expect(distanceM(TRUE_POINT, all)).toBeGreaterThan(distanceM(TRUE_POINT, { lat: summary.lat!, lon: summary.lon! }));
  });

  it('judges a fix by the receiver’s estimate while GST comes, and by HDOP (saying so) once it stops', () => {
    const fixes = fixesOf('stationary-gst-stops.nmea');
    const first = fixes.find((f) => f.epoch === '16:00:05.00' && !f.accuracyEstimated)!;
    expect(judgeGate(first, 5)).toMatchObject({ pass: true, basis: 'receiver', assumption: null });
    const last = fixes.at(-1)!;
    expect(last.accuracyEstimated).toBe(true);
    const verdict = judgeGate(last, 5);
    expect(verdict).toMatchObject({ pass: false, basis: 'hdop' });
    expect(verdict.assumption).toBe('estimated from HDOP × 19 m, the error gpsd assumes for a plain GPS receiver (95 %)');
  });

  it('counts toward a time goal, and is done only with a fix kept', () => {
    let state = startAveraging({ kind: 'time', seconds: 60 }, 5, 1_000);
    expect(summarize(state, 61_000)).toMatchObject({ done: false, progress: 1, kept: 0 });
    state = addFix(state, fixesOf('stationary-gst.nmea').at(-1)!);
    expect(summarize(state, 31_000)).toMatchObject({ done: false, progress: 0.5, kept: 1, spreadEastM: null });
    expect(summarize(state, 61_000)).toMatchObject({ done: true, kept: 1 });
  });

  it('works across the antimeridian', () => {
    const at = (lon: number) => ({ lat: -17, lon });
    const mean = meanAndOffsets([at(179.99999), at(-179.99999)]);
    expect(Math.abs(Math.abs(mean.lon) - 180)).toBeLessThan(1e-6);
  });
});
