// The coordinate reader behind the site form's latitude/longitude fields: what a technician pastes
// from a GPS unit, a survey sheet or a map site must land on the right spot, and anything else must
// get a sentence instead of a silently wrong position.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coordinateFieldValue, formatDms, readCoordinates } from '../../renderer/src/shared/coords';

function pair(text: string): { latitude: number; longitude: number } {
  const reading = readCoordinates(text);
  if (reading.kind !== 'pair') throw new Error(`expected a pair from ${text}, got ${JSON.stringify(reading)}`);
  return { latitude: reading.latitude, longitude: reading.longitude };
}

function single(text: string): number {
  const reading = readCoordinates(text);
  if (reading.kind !== 'single') throw new Error(`expected one coordinate from ${text}, got ${JSON.stringify(reading)}`);
  return reading.coordinate.value;
}

function error(text: string): string {
  const reading = readCoordinates(text);
  if (reading.kind !== 'error') throw new Error(`expected an error from ${text}, got ${JSON.stringify(reading)}`);
  return reading.message;
}

describe('reading pasted coordinates', () => {
  it('reads the classic DMS pair with hemisphere letters (Pittsburgh)', () => {
    const p = pair('40°26\'46"N 79°58\'56"W');
    expect(p.latitude).toBeCloseTo(40.446111, 6);
    expect(p.longitude).toBeCloseTo(-79.982222, 6);
  });

  it('reads the look-alike characters that word processors and GPS units produce', () => {
    const expected = pair('40°26\'46"N 79°58\'56"W');
    expect(pair('40º26′46″N, 79º58′56″W')).toEqual(expected);
    expect(pair('40˚26’46”N 79˚58’56”W')).toEqual(expected);
    expect(pair("40°26'46''N 79°58'56''W")).toEqual(expected);
    expect(pair('40d26m46sN 79d58m56sW')).toEqual(expected);
    expect(pair('40 26 46 N 79 58 56 W')).toEqual(expected);
    expect(pair('40:26:46N 79:58:56W')).toEqual(expected);
    expect(pair('N40°26\'46" W79°58\'56"')).toEqual(expected);
  });

  it('puts latitude first even when the longitude is written first', () => {
    const p = pair('79°58\'56"W 40°26\'46"N');
    expect(p.latitude).toBeCloseTo(40.446111, 6);
    expect(p.longitude).toBeCloseTo(-79.982222, 6);
  });

  it('reads decimal pairs as copied from map sites', () => {
    expect(pair('40.446111, -79.982222')).toEqual({ latitude: 40.446111, longitude: -79.982222 });
    expect(pair('40.446111 -79.982222')).toEqual({ latitude: 40.446111, longitude: -79.982222 });
    expect(pair('40.446111,-79.982222')).toEqual({ latitude: 40.446111, longitude: -79.982222 });
    expect(pair('-33.8688; 151.2093')).toEqual({ latitude: -33.8688, longitude: 151.2093 });
  });

  it('reads degrees and decimal minutes', () => {
    expect(single("N 40°26.767'")).toBeCloseTo(40.446117, 6);
    expect(single('40 26.767 N')).toBeCloseTo(40.446117, 6);
  });

  it('makes southern and western coordinates negative', () => {
    expect(single('33°52\'8"S')).toBeCloseTo(-33.868889, 6);
    expect(single('151.2093 E')).toBe(151.2093);
    expect(single('0.5 W')).toBe(-0.5);
    expect(single('-12.5')).toBe(-12.5);
  });

  it('keeps at most 7 decimals, like the wire', () => {
    expect(single('40°26\'46.123456"N')).toBe(40.4461454);
  });

  it('refuses minutes or seconds of 60 and more', () => {
    expect(error('40°61\'00"N')).toMatch(/Minutes must be below 60/);
    expect(error('40°26\'75"N')).toMatch(/Seconds must be below 60/);
  });

  it('refuses a minus sign together with a hemisphere letter', () => {
    expect(error('-40.5 S')).toMatch(/either a minus sign or the letter S/);
  });

  it('refuses two latitudes or two longitudes', () => {
    expect(error('40.1 N 41.2 N')).toMatch(/Both coordinates are latitudes/);
    expect(error('79.1 W 80.2 E')).toMatch(/Both coordinates are longitudes/);
  });

  it('refuses text that is not a coordinate, and more than two coordinates', () => {
    expect(error('north ridge')).toMatch(/not part of a coordinate/);
    expect(error('1, 2, 3')).toMatch(/more than two/);
    expect(error("40.5°26'")).toMatch(/decimals cannot be followed by minutes/);
  });

  it('treats blank as empty', () => {
    expect(readCoordinates('   ').kind).toBe('empty');
  });

  it('round-trips any coordinate through its DMS form to within a tenth of a second', () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lon) => {
        const back = pair(`${formatDms(lat, 'lat')} ${formatDms(lon, 'lon')}`);
        expect(Math.abs(back.latitude - lat)).toBeLessThan(0.1 / 3600 + 1e-7);
        expect(Math.abs(back.longitude - lon)).toBeLessThan(0.1 / 3600 + 1e-7);
      }),
    );
  });
});

describe('what the form sends for one coordinate field', () => {
  it('sends a converted decimal for DMS text', () => {
    expect(coordinateFieldValue('40°26\'46"N', 'lat')).toEqual({ value: '40.4461111', message: null, converted: true });
  });

  it('passes plain decimals and comma decimals through, so the shared schema words the error', () => {
    expect(coordinateFieldValue(' 45.5 ', 'lat')).toEqual({ value: '45.5', message: null, converted: false });
    // A decimal comma is read as the import and the CLI read it (one reader for all three).
    expect(coordinateFieldValue('45,5', 'lat')).toEqual({ value: '45.5', message: null, converted: true });
    expect(coordinateFieldValue('95', 'lat').value).toBe('95');
  });

  it('says so when a longitude is typed into the latitude field', () => {
    expect(coordinateFieldValue('79°58\'56"W', 'lat').message).toMatch(/longitude/);
    expect(coordinateFieldValue('40°26\'46"N', 'lon').message).toMatch(/latitude/);
  });

  it('gives a DMS sentence for broken DMS text', () => {
    expect(coordinateFieldValue('40°75\'N', 'lat').message).toMatch(/Minutes must be below 60/);
  });
});
