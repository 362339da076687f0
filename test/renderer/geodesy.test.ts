// The measure tool's arithmetic: distances and bearings a crew would check against a survey, against
// published values (the Land's End to John o' Groats example of Chris Veness's "Movable Type" pages,
// exact quarter circles), and distances said in the user's units.
import { describe, expect, it } from 'vitest';
import { compassPoint, EARTH_RADIUS_M, formatBearing, formatDistance, haversineDistance, initialBearing } from '../../renderer/src/map/geodesy';
import { expectExamples } from '../support/examples';

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
    expectExamples(formatDistance, [[950.4, 'm', '950 m'], [1500, 'm', '1.5 km'], [968_900, 'm', '968.9 km']]);
    expectExamples(formatDistance, [[100, 'ft', '328 ft'], [2 * 1609.344, 'ft', '2 mi'], [1_000_000, 'ft', '621.4 mi']]);
  });

  it('names the compass point of a bearing', () => {
    expectExamples(compassPoint, [[0, 'N'], [47, 'NE'], [359, 'N'], [180, 'S'], [292.5, 'WNW']]);
    expectExamples(formatBearing, [[9.1197, '9.1° (N)'], [359.97, '0.0° (N)']]);
  });
});
