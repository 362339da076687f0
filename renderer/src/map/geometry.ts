// Pure geometry for the map (no Leaflet, no DOM, so it is testable in Node): the offline grid's
// spacing and labels, and the strips of the pin canvas a pan uncovers.

/** Grid spacings in degrees, fine to coarse. */
const STEPS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 45, 90];

/** The finest spacing that keeps lines at least ~120 px apart at this zoom (labels need the room). */
export function gridStep(zoom: number, tileSize = 256): number {
  const degreesPerPixel = 360 / (tileSize * 2 ** zoom);
  const wanted = degreesPerPixel * 120;
  for (const step of STEPS) if (step >= wanted) return step;
  return STEPS[STEPS.length - 1]!;
}

/** Decimals a label needs to tell lines apart: those of the step itself (0.25 → 2). */
function decimalsFor(step: number): number {
  return (String(step).split('.')[1] ?? '').length;
}

export function formatGridLabel(value: number, axis: 'lat' | 'lon', step: number): string {
  const hemi = axis === 'lat' ? (value < 0 ? 'S' : value > 0 ? 'N' : '') : value < 0 ? 'W' : value > 0 ? 'E' : '';
  return `${Math.abs(value).toFixed(decimalsFor(step))}°${hemi}`;
}

/** A grid line's value without floating-point noise (0.30000000000000004 → 0.3). */
export function roundTo(value: number, step: number): number {
  return Number((Math.round(value / step) * step).toFixed(decimalsFor(step)));
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The parts of a w×h canvas that a shift by (dx, dy) leaves without a picture. */
export function uncovered(dx: number, dy: number, w: number, h: number): Rect[] {
  const strips: Rect[] = [];
  if (dx > 0) strips.push({ x: w - dx, y: 0, w: dx, h });
  else if (dx < 0) strips.push({ x: 0, y: 0, w: -dx, h });
  if (dy > 0) strips.push({ x: 0, y: h - dy, w, h: dy });
  else if (dy < 0) strips.push({ x: 0, y: 0, w, h: -dy });
  return strips;
}

/** Whether a w×h box at (x, y) overlaps any of the strips. */
export function touches(strips: Rect[], x: number, y: number, w: number, h: number): boolean {
  for (const r of strips) if (x < r.x + r.w && x + w > r.x && y < r.y + r.h && y + h > r.y) return true;
  return false;
}
