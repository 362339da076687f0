// Staking through Debian's real gpsd, fed the stationary fixture by gpsfake: the reader's views, one
// or more per epoch, averaged as the page averages them — each epoch counted once, the mean of 60
// within a metre of the true point. Skipped without gpsd/gpsfake, except under CI.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GpsReader } from '../../electron/core/gps/reader';
import { addFix, distanceM, startAveraging, summarize, type Averaging } from '../../electron/shared/gps/averaging';
import { TRUE_POINT } from '../fixtures/gps/make-stationary';
import { freePort } from '../support/net';
import { GPSFAKE_SKIP_REASON, startGpsfake } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

beforeAll(() => {
  if (GPSFAKE_SKIP_REASON !== null && process.env.CI) throw new Error(`CI is set but the gpsd tests cannot run: ${GPSFAKE_SKIP_REASON}.`);
});

const STATIONARY = new URL('../fixtures/gps/stationary-gst.nmea', import.meta.url).pathname;

describe.skipIf(GPSFAKE_SKIP_REASON !== null && !process.env.CI)('staking through a real gpsd', () => {
  it('averages 60 epochs from gpsd into a position within 1 m of the true point, each epoch once', async () => {
    const port = await freePort();
    const fake = startGpsfake(port, { log: STATIONARY, cycle: 0.01 });
    cleanups.push(() => fake.stop());
    // The gate is wide here: what gpsd makes of GST is gpsd's business; the averaging is under test.
    let state: Averaging = startAveraging({ kind: 'count', fixes: 60 }, 50, 0);
    let views = 0;
    const reader = new GpsReader({
      source: 'gpsd',
      host: '127.0.0.1',
      port,
      minEmitMs: 1,
      retryMinMs: 50,
      retryMaxMs: 250,
      onView: (view) => {
        if (!view.fix || summarize(state, 0).done) return;
        views++;
        state = addFix(state, view.fix);
      },
    });
    cleanups.push(() => reader.close());
    reader.start();
    await vi.waitFor(() => expect(summarize(state, 0).done, fake.output()).toBe(true), { timeout: 60_000, interval: 50 });
    const summary = summarize(state, 0);
    expect(summary.kept).toBe(60);
    // gpsd reports an epoch more than once (RMC, GGA, GST each end a report): more views than epochs.
    expect(views).toBeGreaterThan(60);
    expect(new Set(state.samples.map((s) => s.epoch)).size).toBe(state.samples.length);
    expect(distanceM(TRUE_POINT, { lat: summary.lat!, lon: summary.lon! })).toBeLessThan(1);
  }, 90_000);
});
