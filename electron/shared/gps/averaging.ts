// Averaging fixes into one tower position ("Stake here"): fixes are collected per epoch (a receiver
// sending GGA, RMC and GST for one epoch is counted once: a later report of the same epoch replaces
// the earlier), those worse than the accuracy gate are skipped and counted, never averaged; the rest
// give a mean position and its spread (standard deviation east and north, in metres, on a local plane:
// over the few metres a fix wanders the Earth is flat). Pure functions over an immutable state, so the
// page re-renders from it and the tests drive it without a receiver.
import type { GpsFixView } from '../contract/gps';
import { judgeGate } from './gate';

export type AveragingGoal = { kind: 'count'; fixes: number } | { kind: 'time'; seconds: number };
export const DEFAULT_AVERAGING_GOAL: AveragingGoal = { kind: 'count', fixes: 60 };
export const DEFAULT_AVERAGING_SECONDS = 60;

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

interface EpochSample {
  epoch: string;
  fix: GpsFixView;
  kept: boolean;
}

export interface Averaging {
  goal: AveragingGoal;
  gateM: number;
  /** When averaging began (ms, host clock): the time goal counts from it. */
  startedMs: number;
  /** One entry per epoch, in arrival order. */
  samples: readonly EpochSample[];
}

export interface AveragingSummary {
  kept: number;
  skipped: number;
  /** Mean of the kept fixes, null before the first. */
  lat: number | null;
  lon: number | null;
  /** Standard deviation (sample, n − 1) of the kept fixes east and north, metres; null below two fixes. */
  spreadEastM: number | null;
  spreadNorthM: number | null;
  /** Mean of the kept fixes' own accuracy radii, null when none gave one. */
  accuracyM: number | null;
  /** True when that accuracy was worked out of HDOP for any kept fix. */
  accuracyEstimated: boolean;
  /** The goal is met: the crew can accept (they may accept earlier, with what is kept). */
  done: boolean;
  /** 0 to 1 towards the goal. */
  progress: number;
}

export function startAveraging(goal: AveragingGoal, gateM: number, nowMs: number): Averaging {
  return { goal, gateM, startedMs: nowMs, samples: [] };
}

/** Adds a fix: a new epoch is appended, a later report of the epoch already last replaces it. */
export function addFix(state: Averaging, fix: GpsFixView): Averaging {
  const kept = judgeGate(fix, state.gateM).pass;
  const sample: EpochSample = { epoch: fix.epoch, fix, kept };
  const at = state.samples.findIndex((s) => s.epoch === fix.epoch);
  if (at < 0) return { ...state, samples: [...state.samples, sample] };
  // The same fix handed out again (the page repaints, the platform repeats itself): nothing new.
  if (state.samples[at]!.fix === fix) return state;
  const samples = state.samples.slice();
  samples[at] = sample;
  return { ...state, samples };
}

export function summarize(state: Averaging, nowMs: number): AveragingSummary {
  const kept = state.samples.filter((s) => s.kept).map((s) => s.fix);
  const skipped = state.samples.length - kept.length;
  const progress =
    state.goal.kind === 'count' ? Math.min(1, kept.length / state.goal.fixes) : Math.min(1, (nowMs - state.startedMs) / (state.goal.seconds * 1000));
  const done = kept.length > 0 && progress >= 1;
  if (kept.length === 0) {
    return { kept: 0, skipped, lat: null, lon: null, spreadEastM: null, spreadNorthM: null, accuracyM: null, accuracyEstimated: false, done, progress };
  }
  const { lat, lon, east, north } = meanAndOffsets(kept);
  const accuracies = kept.map((f) => f.accuracyM).filter((a): a is number => a !== null);
  return {
    kept: kept.length,
    skipped,
    lat,
    lon,
    spreadEastM: standardDeviation(east),
    spreadNorthM: standardDeviation(north),
    accuracyM: accuracies.length > 0 ? accuracies.reduce((a, b) => a + b, 0) / accuracies.length : null,
    accuracyEstimated: kept.some((f) => f.accuracyEstimated),
    done,
    progress,
  };
}

/** The mean position, and each fix's offset from it in metres east and north. */
export function meanAndOffsets(fixes: readonly Pick<GpsFixView, 'lat' | 'lon'>[]): { lat: number; lon: number; east: number[]; north: number[] } {
  const origin = fixes[0]!;
  const cosLat = Math.cos(origin.lat * RAD);
  // Offsets from the first fix on a local plane; longitude differences wrap across the antimeridian.
  const east = fixes.map((f) => wrapDegrees(f.lon - origin.lon) * RAD * EARTH_RADIUS_M * cosLat);
  const north = fixes.map((f) => (f.lat - origin.lat) * RAD * EARTH_RADIUS_M);
  const meanEast = east.reduce((a, b) => a + b, 0) / east.length;
  const meanNorth = north.reduce((a, b) => a + b, 0) / north.length;
  const lat = origin.lat + meanNorth / EARTH_RADIUS_M / RAD;
  const lon = wrapDegrees(origin.lon + meanEast / (EARTH_RADIUS_M * cosLat) / RAD);
  return { lat, lon, east: east.map((e) => e - meanEast), north: north.map((n) => n - meanNorth) };
}

function standardDeviation(deviations: readonly number[]): number | null {
  if (deviations.length < 2) return null;
  return Math.sqrt(deviations.reduce((a, d) => a + d * d, 0) / (deviations.length - 1));
}

function wrapDegrees(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** Metres between two positions (haversine): the distance from a site to where it would move. */
export function distanceM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
