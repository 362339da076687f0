// "Stake here" and "Move site to my position": fixes are averaged for a number of fixes or seconds
// (60 unless chosen), one per epoch, those worse than the gate skipped and counted. The crew sees
// what is kept and skipped, the running mean, its spread east and north, the receiver's accuracy and,
// when moving a site, how far the mean is from where the site is now; then accepts (at any time once
// a fix is kept), restarts or cancels. The estimator is ../../../../electron/shared/gps/averaging.ts.
import { useEffect, useId, useRef, useState } from 'react';
import type { GpsFixView } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { addFix, DEFAULT_AVERAGING_GOAL, distanceM, startAveraging, summarize, type AveragingGoal } from '../../../../electron/shared/gps/averaging';
import type { SiteMeasurement } from '../../../../electron/shared/validation/measurement';
import { formatDecimal } from '../../shared/coords';
import { formatAccuracy } from './location-view';
import { formatGate } from './gate-view';

export interface StakeResult {
  lat: number;
  lon: number;
  measurement: SiteMeasurement;
}

export interface StakePanelProps {
  title: string;
  fix: GpsFixView | null;
  /** Why the current fix is skipped (worse than the gate), said while it is. */
  gateProblem: string | null;
  source: SiteMeasurement['source'];
  gateM: number;
  /** "Use it anyway": every fix is kept, and the measurement says the gate was overridden. */
  overridden: boolean;
  unit: HeightUnit;
  /** Where the site is now, when moving one. */
  target: { lat: number; lon: number } | null;
  onAccept: (result: StakeResult) => void;
  onCancel: () => void;
}

export function StakePanel({ title, fix, gateProblem, source, gateM, overridden, unit, target, onAccept, onCancel }: StakePanelProps) {
  const id = useId();
  const [goal, setGoal] = useState<AveragingGoal>(DEFAULT_AVERAGING_GOAL);
  const [amountText, setAmountText] = useState('60');
  const effectiveGate = overridden ? Number.POSITIVE_INFINITY : gateM;
  const [state, setState] = useState(() => startAveraging(goal, effectiveGate, Date.now()));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    // Once the goal is met the figures hold still, so what the crew accepts is what they read.
    if (fix) setState((s) => (summarize(s, Date.now()).done ? s : addFix(s, fix)));
  }, [fix]);
  // The time goal and the live figures move on even when no new epoch comes.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);

  const restart = (next: AveragingGoal = goal) => {
    setGoal(next);
    const at = Date.now();
    setNow(at);
    setState(startAveraging(next, effectiveGate, at));
  };
  // "Use it anyway" ticked or unticked: what is kept changes, so the averaging starts again.
  const firstGate = useRef(effectiveGate);
  useEffect(() => {
    if (firstGate.current === effectiveGate) return;
    firstGate.current = effectiveGate;
    setState(startAveraging(goal, effectiveGate, Date.now()));
  }, [effectiveGate, goal]);
  const summary = summarize(state, now);
  const target_ = summary.kept > 0 && summary.lat !== null && summary.lon !== null ? { lat: summary.lat, lon: summary.lon } : null;
  const goalWord = goal.kind === 'count' ? `${goal.fixes} fixes` : `${goal.seconds} s`;
  const elapsed = Math.floor((now - state.startedMs) / 1000);

  const accept = () => {
    if (!target_) return;
    onAccept({
      lat: target_.lat,
      lon: target_.lon,
      measurement: {
        source,
        quality: state.samples.find((s) => s.kept)?.fix.quality ?? 'other',
        fixes: summary.kept,
        skipped: summary.skipped,
        spreadEastM: summary.spreadEastM,
        spreadNorthM: summary.spreadNorthM,
        accuracyM: summary.accuracyM,
        accuracyEstimated: summary.accuracyEstimated,
        gateM,
        overridden,
        at: new Date().toISOString(),
      },
    });
  };

  return (
    <section className="stake-panel" aria-label={title} data-testid="stake-panel" data-done={summary.done ? 'true' : 'false'}>
      <p className="stake-title">
        <strong>{title}</strong> — averaging {goalWord}
        {overridden ? ', every fix kept (gate overridden)' : `, skipping fixes worse than ${formatGate(gateM, unit)}`}.
      </p>
      <fieldset className="stake-goal">
        <legend className="visually-hidden">Average for</legend>
        <label>
          <input type="radio" name={`${id}-goal`} checked={goal.kind === 'count'} onChange={() => restart({ kind: 'count', fixes: amount(amountText) })} /> fixes
        </label>
        <label>
          <input type="radio" name={`${id}-goal`} checked={goal.kind === 'time'} onChange={() => restart({ kind: 'time', seconds: amount(amountText) })} /> seconds
        </label>
        <label>
          <span className="visually-hidden">How many</span>
          <input
            type="number"
            min={1}
            max={3600}
            value={amountText}
            aria-label={goal.kind === 'count' ? 'Fixes to average' : 'Seconds to average'}
            onChange={(e) => {
              setAmountText(e.target.value);
              const n = amount(e.target.value);
              restart(goal.kind === 'count' ? { kind: 'count', fixes: n } : { kind: 'time', seconds: n });
            }}
          />
        </label>
      </fieldset>
      {gateProblem && !overridden && (
        <p className="stake-gate" role="status" data-testid="stake-gate">
          Skipping: {gateProblem}
        </p>
      )}
      <progress max={1} value={summary.progress} aria-label="Averaging progress" />
      <div className="location-actions">
        <button type="button" className="primary" disabled={!target_} onClick={accept}>
          {summary.done || !target_ ? 'Accept' : `Accept now (${summary.kept} fix${summary.kept === 1 ? '' : 'es'})`}
        </button>
        <button type="button" onClick={() => restart()}>
          Restart
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <dl className="stake-facts">
        <dt>Kept</dt>
        <dd data-testid="stake-kept">
          {summary.kept}
          {goal.kind === 'count' ? ` of ${goal.fixes}` : ` in ${elapsed} of ${goal.seconds} s`}
        </dd>
        <dt>Skipped</dt>
        <dd data-testid="stake-skipped">{summary.skipped === 0 ? 'none' : `${summary.skipped} (worse than the gate)`}</dd>
        <dt>Mean position</dt>
        <dd data-testid="stake-mean">{target_ ? `${formatDecimal(target_.lat)}, ${formatDecimal(target_.lon)}` : 'waiting for a fix within the gate…'}</dd>
        <dt>Spread</dt>
        <dd data-testid="stake-spread">
          {summary.spreadEastM !== null && summary.spreadNorthM !== null
            ? `${formatAccuracy(summary.spreadEastM, unit)} east, ${formatAccuracy(summary.spreadNorthM, unit)} north (1 σ)`
            : 'needs two fixes'}
        </dd>
        <dt>Receiver accuracy</dt>
        <dd data-testid="stake-accuracy">
          {formatAccuracy(summary.accuracyM, unit)}
          {summary.accuracyEstimated && summary.accuracyM !== null ? ' (estimated from HDOP)' : ''}
        </dd>
        {target && (
          <>
            <dt>From the site</dt>
            <dd data-testid="stake-distance">{target_ ? `${formatDistance(distanceM(target, target_), unit)} from where the site is now` : '—'}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

function amount(text: string): number {
  const n = Math.round(Number(text));
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 3600) : 60;
}

function formatDistance(meters: number, unit: HeightUnit): string {
  return formatAccuracy(meters, unit).slice(1);
}
