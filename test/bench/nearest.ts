// Nearest-site distances for the EUS layer: 5,000 submissions against 50,000 sites, through the
// kd-tree index (build + every query), beside measuring every pair (sampled: 250 million distances
// would take minutes, so the figure is scaled from 100 submissions). Target (printed): under 0.5 s.
import { performance } from 'node:perf_hooks';
import { distance } from 'geokdbush';
import { NearestSiteIndex, type SitePoint } from '../../electron/shared/geo/nearest-site';
import type { BenchFigure } from './figures';

const SITES = 50_000;
const SUBMISSIONS = 5_000;
const SAMPLED = 100;

/** A regional spread: towers around 25 towns and submissions around the same towns. */
function points(n: number, seed: number): SitePoint[] {
  let state = seed;
  const rand = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, (_, i) => {
    const town = i % 25;
    return { latitude: 39 + (town % 5) * 0.6 + (rand() - 0.5) * 0.5, longitude: -105 + Math.floor(town / 5) * 0.8 + (rand() - 0.5) * 0.6 };
  });
}

export async function benchNearest(): Promise<BenchFigure[]> {
  const sites = points(SITES, 42);
  const submissions = points(SUBMISSIONS, 7);
  const started = performance.now();
  const index = new NearestSiteIndex(sites);
  const built = performance.now();
  let total = 0;
  for (const { latitude, longitude } of submissions) total += index.nearest(latitude!, longitude!)!.km;
  const ended = performance.now();

  const bruteStart = performance.now();
  for (const { latitude, longitude } of submissions.slice(0, SAMPLED)) {
    let best = Infinity;
    for (const site of sites) best = Math.min(best, distance(longitude!, latitude!, site.longitude!, site.latitude!));
    total += best;
  }
  const bruteMs = ((performance.now() - bruteStart) / SAMPLED) * SUBMISSIONS;
  const indexMs = ended - started;
  if (!Number.isFinite(total)) throw new Error('a distance was not a number');
  return [
    { name: `nearest site: ${SUBMISSIONS.toLocaleString('en-US')} submissions × ${SITES.toLocaleString('en-US')} sites (build + queries)`, value: round(indexMs), unit: 'ms', baseline: round(bruteMs), ratio: round(bruteMs / indexMs), note: `every pair measured (scaled from ${SAMPLED}); ratio = how many times faster; target < 500 ms` },
    { name: 'nearest site: index build, 50,000 sites', value: round(built - started), unit: 'ms' },
  ];
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
