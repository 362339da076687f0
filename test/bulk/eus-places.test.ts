// EUS submissions with positions: the site import's column recognition finds the latitude and
// longitude columns, the one coordinate reader reads the cells, and each submission is told its
// nearest site; a file without positions plans exactly as before.
import { describe, expect, it } from 'vitest';
import { planReprocess, readEusCsv, type EusNearestSite } from '../../electron/shared/bulk/eus';
import { NearestSiteIndex, type SitePoint } from '../../electron/shared/geo/nearest-site';
import { distance } from 'geokdbush';

const encode = (text: string) => new TextEncoder().encode(text);

const SITES: Array<SitePoint & { name: string }> = [
  { name: 'Ridge', latitude: 45.1, longitude: -111.1 },
  { name: 'Silo', latitude: 45.5, longitude: -111.6 },
  { name: 'No position', latitude: null, longitude: null },
];

function finder(sites: typeof SITES): (latitude: number, longitude: number) => EusNearestSite | null {
  const index = new NearestSiteIndex(sites);
  return (latitude, longitude) => {
    const found = index.nearest(latitude, longitude);
    return found ? { localId: `L${found.index}`, siteId: null, name: sites[found.index]!.name, km: found.km } : null;
  };
}

describe('EUS submissions on the map', () => {
  it.each([
    ['Latitude', 'Longitude'],
    ['lat', 'lng'],
    ['Y', 'X'],
    ['Lat (deg)', 'Long'],
  ])('finds positions in columns %j and %j, as the site import does', (lat, lon) => {
    const plan = planReprocess(readEusCsv(encode(`ProcessID,Name,${lat},${lon}\n880101,Ann,45.11,-111.12\n`)), { multiMapId: '4101', sendEmail: false });
    expect(plan.coordinates).toEqual({ latitudeColumn: lat, longitudeColumn: lon, located: 1 });
    expect(plan.rows[0]!.place).toEqual({ latitude: 45.11, longitude: -111.12 });
  });

  it('reads degrees-minutes-seconds and decimal commas, and says which cells are no position', () => {
    const csv = 'ProcessID;Latitude;Longitude\n1;45°06\'36"N;111°06\'W\n2;"45,2";"-111,3"\n3;north;-111\n4;;\n5;95;-111\n';
    const plan = planReprocess(readEusCsv(encode(csv)), { multiMapId: '4101', sendEmail: false });
    expect(plan.rows.map((row) => row.place ?? row.placeProblem ?? null)).toEqual([
      { latitude: 45.11, longitude: -111.1 },
      { latitude: 45.2, longitude: -111.3 },
      expect.stringMatching(/^Latitude/),
      null,
      expect.stringMatching(/between -90 and 90/),
    ]);
    expect(plan.coordinates?.located).toBe(2);
    // A row without a position is still a submission to reprocess.
    expect(plan.summary.ready).toBe(5);
  });

  it('tells each located submission its nearest site and how far it is, and filters by distance', () => {
    const csv = 'ProcessID,Name,Latitude,Longitude\n1,Near Ridge,45.11,-111.1\n2,Near Silo,45.5,-111.65\n3,Far,47,-100\n4,Nowhere,,\n';
    const table = readEusCsv(encode(csv));
    const plan = planReprocess(table, { multiMapId: '4101', sendEmail: false, nearestSite: finder(SITES) });
    expect(plan.rows.map((row) => [row.processId, row.nearestSite?.name, row.nearestSite && Math.round(row.nearestSite.km * 10) / 10])).toEqual([
      ['1', 'Ridge', 1.1],
      ['2', 'Silo', 3.9],
      ['3', 'Ridge', 881.4],
      ['4', undefined, undefined],
    ]);
    const near = planReprocess(table, { multiMapId: '4101', sendEmail: false, nearestSite: finder(SITES), withinKm: 5 });
    expect(near.rows.map((row) => row.processId)).toEqual(['1', '2']);
    expect(near.excluded).toBe(2);
  });

  it('plans a file without positions as before, and refuses a distance filter on it with a sentence', () => {
    const table = readEusCsv(encode('ProcessID,Name\n1,Ann\n'));
    const plan = planReprocess(table, { multiMapId: '4101', sendEmail: false, nearestSite: finder(SITES) });
    expect(plan.coordinates).toBeNull();
    expect(plan.rows[0]).not.toHaveProperty('place');
    expect(plan.rows[0]).not.toHaveProperty('nearestSite');
    const filtered = planReprocess(table, { multiMapId: '4101', sendEmail: false, withinKm: 2 });
    expect(filtered.problems).toEqual(['The file has no latitude and longitude columns, so its submissions cannot be filtered by distance to a site.']);
  });

  it('keeps the 24-hour email guard for submissions picked by distance', () => {
    const table = readEusCsv(encode('ProcessID,Latitude,Longitude\n880101,45.1,-111.1\n880104,45.1,-111.11\n'));
    const plan = planReprocess(table, { multiMapId: '4101', sendEmail: true, nearestSite: finder(SITES), withinKm: 2, recentEmails: { 880101: 'Emailed 20 minutes ago' } });
    expect(plan.rows.map((row) => [row.processId, row.ready, row.heldBack ?? false])).toEqual([
      ['880101', false, true],
      ['880104', true, false],
    ]);
  });
});

describe('the nearest-site index', () => {
  /** A seeded generator, so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1664525 + 1013904223) % 4294967296;
      return state / 4294967296;
    };
  }

  it('finds the same site as measuring every distance, across the antimeridian and near the poles', () => {
    const next = random(7);
    const sites: SitePoint[] = Array.from({ length: 2000 }, () => ({ latitude: next() * 180 - 90, longitude: next() * 360 - 180 }));
    sites.push({ latitude: 10, longitude: 179.95 }, { latitude: 89.9, longitude: 0 });
    const index = new NearestSiteIndex(sites);
    const queries = [...Array.from({ length: 300 }, () => [next() * 180 - 90, next() * 360 - 180] as const), [10, -179.99] as const, [89.95, 120] as const];
    for (const [latitude, longitude] of queries) {
      let best = Infinity;
      for (const site of sites) best = Math.min(best, distance(longitude, latitude, site.longitude!, site.latitude!));
      expect(index.nearest(latitude, longitude)!.km).toBeCloseTo(best, 6);
    }
    // Across the date line the site 5 km east of it is nearer than anything on this side.
    expect(sites[index.nearest(10, -179.99)!.index]).toEqual({ latitude: 10, longitude: 179.95 });
  });

  it('answers null when no site has a position', () => {
    expect(new NearestSiteIndex([{ latitude: null, longitude: null }]).nearest(45, -111)).toBeNull();
    expect(new NearestSiteIndex([]).size).toBe(0);
  });
});
