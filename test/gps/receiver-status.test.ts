// The receiver status is never wrong: a gpsd with no receiver reads "no receiver", a gpsd whose
// receiver says nothing reads "silent" (its own VERSION/DEVICES/WATCH are not the receiver talking),
// hostile figures are dropped and counted, and a fix that is old or contradicts itself is not a fix.
// Over real TCP against small servers speaking gpsd's JSON.
import { describe, expect, it, vi } from 'vitest';
import type { Socket } from 'node:net';
import { rawServer, readersForEachTest, type TestServer } from './helpers';

const { cleanups, reader } = readersForEachTest({ minEmitMs: 50 });

const wait = { timeout: 10_000, interval: 20 };
const GREETING = '{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}\n';
const DEVICE = '{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","activated":"2024-05-01T16:00:00.000Z"}]}\n';
const WATCH = '{"class":"WATCH","enable":true,"json":true}\n';

/** A gpsd that greets, lists `devices`, answers the WATCH, then sends `lines` every 50 ms (each list in turn, the last repeated). */
async function fakeGpsd(devices: string, lines: string[][] = []): Promise<TestServer & { accepted: () => number }> {
  let accepted = 0;
  const server = await rawServer((socket: Socket) => {
    accepted++;
    socket.write(GREETING);
    socket.once('data', () => {
      socket.write(devices + WATCH);
      let at = 0;
      const timer = setInterval(() => {
        const batch = lines[Math.min(at++, lines.length - 1)];
        if (batch) socket.write(batch.map((l) => `${l}\n`).join(''));
      }, 50);
      socket.on('close', () => clearInterval(timer));
    });
  });
  cleanups.push(() => server.close());
  return { ...server, accepted: () => accepted };
}

describe('the receiver status', () => {
  it('reads "no receiver" when gpsd lists no device, at once and without passing through "no fix"', async () => {
    const server = await fakeGpsd('{"class":"DEVICES","devices":[]}\n');
    const { reader: r, views } = reader({ source: 'gpsd', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('no-receiver'), wait);
    expect(r.view().message).toBe(`gpsd at 127.0.0.1:${server.port} answers, but no GPS receiver is attached to it. Check the receiver’s cable and that gpsd was started with its device (gpsd /dev/ttyACM0, or gpsdctl add).`);
    expect(views.map((v) => v.state)).not.toContain('no-fix');
  });

  it('reads "silent" when gpsd answers but its receiver sends no position report, never "no fix"', async () => {
    // gpsd's greeting, its device list and the WATCH answer, then only SKY: none of it is a position report.
    const server = await fakeGpsd(DEVICE, [['{"class":"SKY","nSat":0,"uSat":0}'], []]);
    const { reader: r, views } = reader({ source: 'gpsd', port: server.port, reconnectSilentMs: 1_500 });
    await vi.waitFor(() => expect(r.view().state).toBe('silent'), wait);
    expect(r.view().message).toBe(`The receiver is silent: gpsd at 127.0.0.1:${server.port} answers, but the receiver has sent no position report for 1 seconds. Is its cable plugged in and the receiver switched on?`);
    // The link is dropped after 1.5 s of nothing readable and opened again: a fresh greeting is still not the receiver.
    await vi.waitFor(() => expect(server.accepted()).toBeGreaterThanOrEqual(2), wait);
    await vi.waitFor(() => expect(server.connections()).toBe(1), wait);
    expect(r.view().state).toBe('silent');
    expect(views.map((v) => v.state)).not.toContain('no-fix');
    expect(views.map((v) => v.state)).not.toContain('fix');
  });

  it('drops hostile figures and counts them, and never shows them', async () => {
    const server = await fakeGpsd(DEVICE, [
      [
        '{"class":"SKY","time":"2024-05-01T16:00:00.000Z","uSat":-5,"nSat":-1,"hdop":-3}',
        '{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2024-05-01T16:00:00.000Z","lat":45.6312,"lon":-111.0238,"eph":1e300,"epx":-50,"epy":3,"altMSL":1e308}',
      ],
    ]);
    const { reader: r } = reader({ source: 'gpsd', port: server.port });
    await vi.waitFor(() => expect(r.view().counts.badValues).toBeGreaterThanOrEqual(6), wait);
    const { fix, counts } = r.view();
    expect(fix).toMatchObject({ lat: 45.6312, lon: -111.0238, accuracyM: null, altitudeM: null, satellites: null, satellitesSeen: null, hdop: null });
    expect(counts.dropped).toBe(0);
  });

  it('does not take a fix dated 2001 as the current one', async () => {
    const server = await fakeGpsd(DEVICE, [['{"class":"TPV","mode":3,"time":"2001-01-01T00:00:00.000Z","lat":45.6312,"lon":-111.0238,"eph":3}']]);
    const { reader: r, views } = reader({ source: 'gpsd', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('no-fix'), wait);
    expect(r.view().message).toBe('No position: the receiver dates its fix 2001-01-01: that is not a current fix (its clock or its data is wrong).');
    expect(views.some((v) => v.fix !== null)).toBe(false);
  });

  it('does not take a fix older than the receiver’s clock as the current one', async () => {
    // The receiver's SKY says 16:00:10, its last fix is from 16:00:00.
    const fix = ['{"class":"TPV","mode":3,"time":"2024-05-01T16:00:00.000Z","lat":45.6312,"lon":-111.0238,"eph":3}'];
    const server = await fakeGpsd(DEVICE, [fix, fix, fix, fix, fix, ['{"class":"SKY","time":"2024-05-01T16:00:10.000Z","uSat":9,"nSat":12,"hdop":0.9}'], []]);
    const { reader: r, views } = reader({ source: 'gpsd', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('no-fix'), wait);
    expect(r.view().message).toBe('No position: the receiver’s last fix is 10 seconds older than its clock: it is not a current fix.');
    expect(views.some((v) => v.state === 'fix')).toBe(true);
  });

  it('does not take a DGPS fix with 0 satellites used and HDOP 99.99 as a fix (the epoch after an outage)', async () => {
    const outage = '{"class":"SKY","time":"2024-05-01T16:00:20.000Z","uSat":0,"nSat":5,"hdop":99.99}';
    const back = '{"class":"TPV","mode":3,"status":2,"time":"2024-05-01T16:00:21.000Z","lat":45.6312,"lon":-111.0238,"eph":475}';
    const sky = '{"class":"SKY","time":"2024-05-01T16:00:22.000Z","uSat":10,"nSat":12,"hdop":0.8}';
    const tight = '{"class":"TPV","mode":3,"status":2,"time":"2024-05-01T16:00:22.000Z","lat":45.6312,"lon":-111.0238,"eph":3.1}';
    const server = await fakeGpsd(DEVICE, [[outage], [back], [back], [back], [sky, tight]]);
    const { reader: r, views } = reader({ source: 'gpsd', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('fix'), wait);
    expect(r.view().fix).toMatchObject({ accuracyM: 3.1, satellites: 10 });
    const contradicted = views.find((v) => v.message.includes('0 satellites used'));
    expect(contradicted).toMatchObject({ state: 'no-fix', fix: null, message: 'No position: the receiver reports a dgps fix (corrected) with 0 satellites used: its own figures contradict each other, so it is not taken as a fix.' });
    expect(views.some((v) => v.fix?.accuracyM === 475)).toBe(false);
  });
});
