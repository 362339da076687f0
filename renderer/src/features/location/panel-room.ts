// How tall My location's panel may grow. It grows upwards from the map's bottom-right stack, up to the
// map's top, but never over a control at the top of the map (zoom, toolbar, Measure, basemap switcher
// and its notices, legend) that stands in the panel's columns: beside the docked form the map is
// narrow and the panel spans all of it, and it once covered the basemap button. Pure over rectangles.

export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The controls the panel must stay below, inside the map's wrapper. */
export const TOP_CONTROLS = '.leaflet-top .leaflet-control, .map-toolbar > *, .map-measure > *, .basemap-switcher, .basemap-notices > *, .legend';

/** Gap kept between the panel and what is above it, px. */
const GAP = 8;

/**
 * The panel's height limit (px): from its bottom up to the map's top or the lowest control above it
 * that overlaps it sideways, whichever is lower; never less than `least` (then the panel scrolls).
 */
export function panelRoom(panel: Box, mapTop: number, controls: Iterable<Box>, least: number): number {
  let ceiling = mapTop;
  for (const control of controls) {
    const shown = control.right > control.left && control.bottom > control.top;
    const beside = control.right <= panel.left || control.left >= panel.right;
    if (!shown || beside || control.bottom > panel.bottom) continue;
    ceiling = Math.max(ceiling, control.bottom);
  }
  return Math.max(least, Math.floor(panel.bottom - ceiling - GAP));
}
