// The measure tool's arithmetic: distances and bearings a crew would check against a survey, against
// published values (the Land's End to John o' Groats example of Chris Veness's "Movable Type" pages,
// exact quarter circles), and distances said in the user's units.
import { describe, expect, it } from 'vitest';
import { compassPoint, EARTH_RADIUS_M, formatBearing, formatDistance, haversineDistance, initialBearing } from '../../renderer/src/lib/geodesy';

const landsEnd = { lat: 50 + 3 / 60 + 59 / 3600, lng: -(5 + 42 / 60 + 53 / 3600) };
const johnOGroats = { lat: 58 + 38 / 60 + 38 / 3600, lng: -(3 + 4 / 60 + 12 / 3600) };

describe('distance and bearing between two points', () => {
  it("gives Land's End to John o' Groats as 968.9 km at an initial bearing of 009°07′11″", () => {
    expect(haversineDistance(landsEnd, johnOGroats, 6_371_000) / 1000).toBeCloseTo(968.9, 1);
    expect(initialBearing(landsEnd, johnOGroats)).toBeCloseTo(9 + 7 / 60 + 11 / 3600, 3);
  });

  it('gives a quarter of the equator as a quarter of the circumference, heading due east', () => {
    const a = { lat: 0, lng: 0 };
    expect(haversineDistance(a, { lat: 0, lng: 90 })).toBeCloseTo((Math.PI / 2) * EARTH_RADIUS_M, 3);
    expect(initialBearing(a, { lat: 0, lng: 90 })).toBeCloseTo(90, 9);
    expect(initialBearing(a, { lat: 0, lng: -90 })).toBeCloseTo(270, 9);
    expect(initialBearing(a, { lat: 10, lng: 0 })).toBeCloseTo(0, 9);
    expect(initialBearing(a, { lat: -10, lng: 0 })).toBeCloseTo(180, 9);
  });

  it('is symmetric in distance, zero for one point, and crosses the antimeridian the short way', () => {
    expect(haversineDistance(johnOGroats, landsEnd)).toBeCloseTo(haversineDistance(landsEnd, johnOGroats), 6);
    expect(haversineDistance(landsEnd, landsEnd)).toBe(0);
    expect(initialBearing(landsEnd, landsEnd)).toBe(0);
    // One degree of longitude at the equator, across ±180: about 111.2 km, heading east.
    expect(haversineDistance({ lat: 0, lng: 179.5 }, { lat: 0, lng: -179.5 }) / 1000).toBeCloseTo(111.2, 1);
    expect(initialBearing({ lat: 0, lng: 179.5 }, { lat: 0, lng: -179.5 })).toBeCloseTo(90, 6);
  });
});

describe('saying distances and bearings', () => {
  it('uses metres and kilometres for the metre setting, feet and miles for feet', () => {
    expect(formatDistance(950.4, 'm')).toBe('950 m');
    expect(formatDistance(1500, 'm')).toBe('1.5 km');
    expect(formatDistance(968_900, 'm')).toBe('968.9 km');
    expect(formatDistance(100, 'ft')).toBe('328 ft');
    expect(formatDistance(2 * 1609.344, 'ft')).toBe('2 mi');
    expect(formatDistance(1_000_000, 'ft')).toBe('621.4 mi');
  });

  it('names the compass point of a bearing', () => {
    expect(compassPoint(0)).toBe('N');
    expect(compassPoint(47)).toBe('NE');
    expect(compassPoint(359)).toBe('N');
    expect(compassPoint(180)).toBe('S');
    expect(compassPoint(292.5)).toBe('WNW');
    expect(formatBearing(9.1197)).toBe('9.1° (N)');
    expect(formatBearing(359.97)).toBe('0.0° (N)');
  });
});
