// The GPS reader over real TCP against a plain NMEA stream replaying the recorded walk: the position
// and its sky, the no-fix stretch, a receiver that is silent, an address where nothing listens, a
// server that restarts, a hostile stream, and no more than about four views a second.
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '../support/net';
import { WALK_FIRST, nmeaStream, rawServer, readersForEachTest, silentServer, type TestServer } from './helpers';

// A view at most every 250 ms: the rate the views-per-second test holds the reader to.
const { cleanups, reader } = readersForEachTest({ minEmitMs: 250 });

function track<T extends TestServer>(server: T): T {
  cleanups.push(() => server.close());
  return server;
}

const wait = { timeout: 10_000, interval: 20 };

describe('an NMEA 0183 stream over TCP', () => {
  it('shows the position with its fix quality, satellites and HDOP, then no fix, then the DGPS fix', async () => {
    const server = track(await nmeaStream({ epochMs: 25 }));
    const { reader: r, views } = reader({ source: 'nmea', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('fix'), wait);
    const fix = r.view().fix!;
    expect(fix.lat).toBeCloseTo(WALK_FIRST.lat, 3);
    expect(fix.lon).toBeCloseTo(WALK_FIRST.lon, 3);
    expect(fix).toMatchObject({ quality: 'gps', qualityLabel: 'GPS fix', satellitesSeen: 12, accuracyEstimated: true });
    expect(fix.satellites).toBeGreaterThanOrEqual(8);
    expect(fix.hdop).toBeGreaterThan(0.9);
    expect(fix.altitudeM).toBeGreaterThan(1500);
    expect(r.view().message).toBe(`Position from the NMEA stream at 127.0.0.1:${server.port}.`);
    await vi.waitFor(() => expect(r.view().state).toBe('no-fix'), wait);
    expect(r.view().fix).toBeNull();
    expect(r.view().message).toMatch(/^No position: the receiver is sending but has no fix \(5 satellites in view\)/);
    await vi.waitFor(() => expect(r.view().fix?.quality).toBe('dgps'), wait);
    expect(r.view().fix).toMatchObject({ qualityLabel: 'DGPS fix (corrected)', satellites: 10 });
    expect(r.view().counts.dropped).toBe(0);
    // The log ended: the stream falls silent and the reader says so.
    await vi.waitFor(() => expect(r.view().state).toBe('silent'), wait);
    expect(views.map((v) => v.state).filter((s, i, all) => s !== all[i - 1])).toEqual(['connecting', 'fix', 'no-fix', 'fix', 'silent']);
  });

  it('emits at most about four views a second however fast the receiver talks', async () => {
    // Every epoch of the walk in 2 ms steps: hundreds of sentences a second.
    const server = track(await nmeaStream({ epochMs: 2, loop: true }));
    const { reader: r, views } = reader({ source: 'nmea', port: server.port });
    await vi.waitFor(() => expect(views.filter((v) => v.state !== 'connecting').length).toBeGreaterThanOrEqual(9), wait);
    const during = views.filter((v) => v.state !== 'connecting');
    // Far more sentences than views: the views were thinned, not the data.
    expect(r.view().counts.read).toBeGreaterThan(during.length * 20);
    const seconds = (during.at(-1)!.at - during[0]!.at) / 1000;
    expect(during.length).toBeGreaterThan(2);
    expect(during.length / Math.max(seconds, 0.25)).toBeLessThanOrEqual(5);
    // Never two views close together, as an unthinned reader gives them (a few ms apart at this rate).
    // The bound is half the interval, not the interval: the recorder stamps a view after the reader
    // decided to emit it, and a loaded machine puts tens of ms between the two (seen: 232 ms).
    for (let i = 1; i < during.length; i++) expect(during[i]!.at - during[i - 1]!.at).toBeGreaterThanOrEqual(125);
  });

  it('says the receiver is silent when the connection opens and nothing comes', async () => {
    const server = track(await silentServer());
    const { reader: r } = reader({ source: 'nmea', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('connecting'), wait);
    await vi.waitFor(() => expect(server.connections()).toBe(1), wait);
    await vi.waitFor(() => expect(r.view().state).toBe('silent'), wait);
    expect(r.view().message).toBe(`The receiver is silent: the NMEA stream at 127.0.0.1:${server.port} has sent nothing for 1 seconds. Is it plugged in and switched on?`);
    expect(r.view().fix).toBeNull();
  });

  it('says nothing answers at an address where nothing listens, and keeps trying', async () => {
    const port = await freePort();
    const { reader: r } = reader({ source: 'gpsd', port });
    await vi.waitFor(() => expect(r.view().state).toBe('unreachable'), wait);
    expect(r.view().fix).toBeNull();
    expect(r.view().message).toBe(`Nothing answers at 127.0.0.1:${port} (connection refused): is gpsd running there? Sitewalk keeps trying.`);
    // A gpsd starts there (this one only answers the WATCH command): the reader finds it without being told.
    const watches: string[] = [];
    const server = track(
      await rawServer((socket) => {
        socket.write('{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}\n');
        socket.on('data', (chunk) => {
          watches.push(chunk.toString());
          const timer = setInterval(() => socket.write('{"class":"TPV","mode":3,"lat":45.6312,"lon":-111.0238,"altMSL":1530,"eph":12.5}\n'), 50);
          socket.on('close', () => clearInterval(timer));
        });
      }, port),
    );
    expect(server.port).toBe(port);
    await vi.waitFor(() => expect(r.view().state).toBe('fix'), wait);
    expect(watches.join('')).toBe('?WATCH={"enable":true,"json":true};\n');
    expect(r.view().fix).toMatchObject({ lat: 45.6312, lon: -111.0238, accuracyM: 12.5, altitudeM: 1530, quality: 'gps', satellites: null, hdop: null });
  });

  it('reconnects when the stream’s server restarts', async () => {
    const port = await freePort();
    let server = await nmeaStream({ port, loop: true, epochMs: 25 });
    cleanups.push(() => server.close());
    const { reader: r, views } = reader({ source: 'nmea', port });
    await vi.waitFor(() => expect(r.view().state).toBe('fix'), wait);
    await server.close();
    await vi.waitFor(() => expect(['connecting', 'unreachable']).toContain(r.view().state), wait);
    server = await nmeaStream({ port, loop: true, epochMs: 25 });
    await vi.waitFor(() => expect(r.view().state).toBe('fix'), wait);
    expect(views.some((v) => v.state === 'unreachable' || v.state === 'connecting')).toBe(true);
  });

  it('survives a hostile stream: garbage and over-long lines are dropped and counted, valid sentences still read', async () => {
    const good = '$GPGGA,160000.00,4537.80054,N,11101.49919,W,1,08,1.10,1512.4,M,-16.9,M,,*51\r\n';
    const server = track(
      await rawServer((socket) => {
        socket.write(Buffer.from([0, 1, 2, 255, 254, 10]));
        socket.write(`${'$GPGGA'.repeat(200_000)}\r\n`); // 1.2 MB without a newline until the end
        socket.write('$GPGGA,160000.00,4537.80054,N,11101.49919,W,1,08,1.10,1512.4,M,-16.9,M,,*52\r\n'); // bad checksum
        socket.write(good);
        const timer = setInterval(() => socket.write(good), 100);
        socket.on('close', () => clearInterval(timer));
      }),
    );
    const { reader: r } = reader({ source: 'nmea', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('fix'), wait);
    expect(r.view().counts.dropped).toBe(3);
    expect(r.view().fix?.lat).toBeCloseTo(WALK_FIRST.lat, 5);
  });

  it('says a stream of bytes that are not NMEA is unreadable rather than silent', async () => {
    const server = track(
      await rawServer((socket) => {
        const timer = setInterval(() => socket.write('{"class":"TPV","mode":3}\n'), 50);
        socket.on('close', () => clearInterval(timer));
      }),
    );
    const { reader: r } = reader({ source: 'nmea', port: server.port });
    await vi.waitFor(() => expect(r.view().state).toBe('silent'), wait);
    expect(r.view().message).toMatch(/sends data Sitewalk cannot read \(no valid NMEA sentence for 1 seconds\)/);
    expect(r.view().counts.dropped).toBeGreaterThan(5);
  });

  it('reports off and device without opening any connection', () => {
    for (const source of ['off', 'device'] as const) {
      const { reader: r, views } = reader({ source, port: 9 });
      expect(r.view().state).toBe(source);
      expect(views).toHaveLength(1);
      expect(r.view().endpoint).toBeNull();
    }
  });
});
