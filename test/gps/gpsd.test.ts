// "My location" from Debian's real gpsd, fed the recorded walk by gpsfake through a pseudo-terminal:
// the reader speaks gpsd's JSON protocol to it, and the browser host follows the settings (gpsd on
// the chosen port) and serves the same view over HTTP. Skipped without gpsd/gpsfake, except under
// CI, where a missing install fails the run.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiEvent, GpsView } from '../../electron/shared/contract/index';
import { GpsReader } from '../../electron/core/gps/reader';
import { call, startTestHost } from '../support/host';
import { freePort } from '../support/net';
import { GPSFAKE_SKIP_REASON, WALK_FIRST, recorder, startBareGpsd, startGpsfake } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

beforeAll(() => {
  if (GPSFAKE_SKIP_REASON !== null && process.env.CI) throw new Error(`CI is set but the gpsd tests cannot run: ${GPSFAKE_SKIP_REASON}.`);
});

const wait = { timeout: 15_000, interval: 25 };

describe.skipIf(GPSFAKE_SKIP_REASON !== null && !process.env.CI)(`a real gpsd fed by gpsfake${GPSFAKE_SKIP_REASON ? ` (skipped: ${GPSFAKE_SKIP_REASON})` : ''}`, () => {
  it('reads the walk from gpsd: the fix with quality, satellites and HDOP, the no-fix stretch, then DGPS', async () => {
    const port = await freePort();
    const fake = startGpsfake(port, { once: true, cycle: 0.02 });
    cleanups.push(() => fake.stop());
    const rec = recorder();
    const reader = new GpsReader({ source: 'gpsd', host: '127.0.0.1', port, silentMs: 2_000, retryMinMs: 50, retryMaxMs: 250, onView: rec.onView });
    cleanups.push(() => reader.close());
    reader.start();

    // gpsd's first report of an epoch comes from RMC alone (2D, no error estimate yet): wait for GGA's.
    await vi.waitFor(() => expect(reader.view().fix?.accuracyM, fake.output()).toBeTypeOf('number'), wait);
    const fix = reader.view().fix!;
    expect(fix.lat).toBeCloseTo(WALK_FIRST.lat, 3);
    expect(fix.lon).toBeCloseTo(WALK_FIRST.lon, 3);
    expect(fix.quality).toBe('gps');
    // gpsd's own eph, not an estimate of ours.
    expect(fix.accuracyEstimated).toBe(false);
    expect(fix.accuracyM).toBeGreaterThan(15);
    // The receiver's own time (from the log), once gpsd has had an RMC with the date.
    await vi.waitFor(() => expect(reader.view().fix?.fixTime).toMatch(/^2024-05-01T16:00:\d\d\.000Z$/), wait);
    await vi.waitFor(() => expect(reader.view().fix?.satellites).toBeGreaterThanOrEqual(8), wait);
    expect(reader.view().fix).toMatchObject({ satellitesSeen: 12 });
    expect(reader.view().fix?.hdop).toBeGreaterThanOrEqual(0.95);

    await vi.waitFor(() => expect(reader.view().state).toBe('no-fix'), wait);
    expect(reader.view().fix).toBeNull();
    await vi.waitFor(() => expect(reader.view().fix?.quality).toBe('dgps'), wait);
    expect(reader.view().fix?.qualityLabel).toBe('DGPS fix (corrected)');
    // gpsd sends an epoch's SKY after its first TPV: the satellites catch up within the epoch.
    await vi.waitFor(() => expect(reader.view().fix?.satellites).toBe(10), wait);
    // The first DGPS report still carries the no-fix HDOP (99.99) gpsd had; the next epoch's is tight.
    await vi.waitFor(() => expect(reader.view().fix?.accuracyM).toBeLessThan(6), wait);
    expect(reader.view().counts.dropped).toBe(0);
  });

  it('the browser host follows Settings to gpsd and serves the view as calls and events', async () => {
    const port = await freePort();
    const fake = startGpsfake(port, { cycle: 0.02 });
    cleanups.push(() => fake.stop());
    const host = await startTestHost({ withStatic: false });
    cleanups.push(() => host.close());
    const events: GpsView[] = [];
    cleanups.push(host.backend.hostApi.onEvent((event: ApiEvent) => event.type === 'gps' && events.push(event.gps)));

    const before = (await call(host, 'getGps', [])).json<{ value: GpsView }>().value;
    expect(before).toMatchObject({ source: 'device', state: 'device', fix: null });
    const saved = await call(host, 'saveSettings', [{ gpsSource: 'gpsd', gpsHost: '127.0.0.1', gpsPort: port }]);
    expect(saved.status).toBe(200);

    await vi.waitFor(() => expect(events.at(-1)?.state, fake.output()).toBe('fix'), wait);
    const served = (await call(host, 'getGps', [])).json<{ value: GpsView }>().value;
    expect(served).toMatchObject({ source: 'gpsd', state: 'fix', endpoint: `127.0.0.1:${port}` });
    expect(served.revision).toBeGreaterThan(before.revision);
    expect(served.fix!.lat).toBeCloseTo(WALK_FIRST.lat, 2);
    // Revisions only grow, across the reader the settings change replaced.
    for (let i = 1; i < events.length; i++) expect(events[i]!.revision).toBeGreaterThan(events[i - 1]!.revision);

    // Off in Settings: the reader stops, and the view says so.
    await call(host, 'saveSettings', [{ gpsSource: 'off' }]);
    await vi.waitFor(() => expect(events.at(-1)?.state).toBe('off'), wait);
    expect(events.at(-1)?.message).toBe('My location is off. Choose where the position comes from in Settings, under Position.');
  });

  it('reads "Receiver silent" within 6 s of gpsfake pausing, and never "No fix" while it is paused', async () => {
    const port = await freePort();
    const fake = startGpsfake(port, { cycle: 0.02 });
    cleanups.push(() => fake.stop());
    const rec = recorder();
    // The real silence (5 s without a position report); the link is redone after 7 s of nothing (15 s in the app).
    const reader = new GpsReader({ source: 'gpsd', host: '127.0.0.1', port, retryMinMs: 50, retryMaxMs: 250, reconnectSilentMs: 7_000, onView: rec.onView });
    cleanups.push(() => reader.close());
    reader.start();
    await vi.waitFor(() => expect(reader.view().state, fake.output()).toBe('fix'), wait);
    fake.pause();
    const pausedAt = Date.now();
    const from = rec.views.length;
    await vi.waitFor(() => expect(reader.view().state).toBe('silent'), wait);
    const silentView = rec.views.find((v, i) => i >= from && v.state === 'silent')!;
    expect(silentView.at - pausedAt).toBeLessThan(6_000);
    expect(silentView.message).toBe(`The receiver is silent: gpsd at 127.0.0.1:${port} answers, but the receiver has sent no position report for 5 seconds. Is its cable plugged in and the receiver switched on?`);
    // Still paused, the link is redone and gpsd greets again (lines read): its greeting is not the receiver talking.
    const readWhenSilent = reader.view().counts.read;
    await vi.waitFor(() => expect(reader.view().counts.read).toBeGreaterThanOrEqual(readWhenSilent + 3), { timeout: 20_000, interval: 50 });
    const whilePaused = rec.views.slice(from).map((v) => v.state);
    expect(whilePaused).not.toContain('no-fix');
    expect(whilePaused.filter((s, i, all) => s !== all[i - 1]).at(-1)).toBe('silent');
    fake.resume();
    await vi.waitFor(() => expect(reader.view().state, fake.output()).toBe('fix'), { timeout: 20_000, interval: 50 });
  }, 60_000);

  it('reads "No receiver" from a gpsd that has no device', async () => {
    const port = await freePort();
    const gpsd = startBareGpsd(port);
    cleanups.push(() => gpsd.stop());
    const rec = recorder();
    const reader = new GpsReader({ source: 'gpsd', host: '127.0.0.1', port, retryMinMs: 50, retryMaxMs: 250, onView: rec.onView });
    cleanups.push(() => reader.close());
    reader.start();
    await vi.waitFor(() => expect(reader.view().state).toBe('no-receiver'), wait);
    expect(reader.view().message).toMatch(/^gpsd at 127\.0\.0\.1:\d+ answers, but no GPS receiver is attached to it\./);
    expect(rec.views.map((v) => v.state)).not.toContain('no-fix');
  });
});
