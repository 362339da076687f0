// Window size, position and maximized state kept between runs. A saved position is used only when
// it still lands on a connected display (a laptop undocked from its monitor must not open the window
// off-screen); otherwise the size is kept and the OS places the window.
import type { Rectangle } from 'electron';

export interface WindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 800, maximized: false };
const MIN_WIDTH = 800;
const MIN_HEIGHT = 560;
/** How much of the title bar must be visible on some display for a saved position to count. */
const MIN_VISIBLE = { width: 120, height: 40 };

/** A stored value as a usable state; anything malformed gives the default. */
export function readWindowState(stored: unknown, workAreas: Rectangle[]): WindowState {
  if (typeof stored !== 'object' || stored === null) return { ...DEFAULT_WINDOW_STATE };
  const value = stored as Record<string, unknown>;
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!finite(value.width) || !finite(value.height)) return { ...DEFAULT_WINDOW_STATE };
  const state: WindowState = {
    width: Math.max(MIN_WIDTH, Math.round(value.width)),
    height: Math.max(MIN_HEIGHT, Math.round(value.height)),
    maximized: value.maximized === true,
  };
  if (finite(value.x) && finite(value.y)) {
    const bounds = { x: Math.round(value.x), y: Math.round(value.y), width: state.width, height: state.height };
    if (workAreas.some((area) => overlaps(bounds, area))) {
      state.x = bounds.x;
      state.y = bounds.y;
    }
  }
  return state;
}

function overlaps(bounds: Rectangle, area: Rectangle): boolean {
  const width = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  const height = Math.min(bounds.y + MIN_VISIBLE.height, area.y + area.height) - Math.max(bounds.y, area.y);
  return width >= MIN_VISIBLE.width && height >= MIN_VISIBLE.height;
}

export { MIN_HEIGHT, MIN_WIDTH };
