// What the measure tool says: the next click to make, or the distance and bearing from A to B in
// the user's units (geodesy in geodesy.ts).
import type { SettingsView } from '../../../electron/shared/contract/index';
import { formatDecimal } from '../shared/coords';
import { formatBearing, formatDistance, haversineDistance, initialBearing } from './geodesy';

/** A clicked point, or a site (then it has a name). */
export interface MeasurePoint {
  lat: number;
  lng: number;
  name: string | null;
}

function pointName(p: MeasurePoint): string {
  return p.name ?? `${formatDecimal(p.lat)}, ${formatDecimal(p.lng)}`;
}

export function MeasureResult({ points, unit }: { points: MeasurePoint[]; unit: SettingsView['heightUnit'] }) {
  const [a, b] = points;
  return (
    <div className="measure-result" role="status" data-testid="measure-result">
      {!a ? (
        <p>Click the first point or site. Esc to stop measuring.</p>
      ) : !b ? (
        <p>
          From <strong>{pointName(a)}</strong>: click the second point or site. Esc to clear.
        </p>
      ) : (
        <>
          <p className="measure-ends">
            <strong>{pointName(a)}</strong> → <strong>{pointName(b)}</strong>
          </p>
          <dl>
            <dt>Distance</dt>
            <dd data-testid="measure-distance">{formatDistance(haversineDistance(a, b), unit)}</dd>
            <dt>Bearing</dt>
            <dd data-testid="measure-bearing">{formatBearing(initialBearing(a, b))}</dd>
          </dl>
          <p className="measure-hint">Click again to start a new measurement. Esc to clear.</p>
        </>
      )}
    </div>
  );
}
