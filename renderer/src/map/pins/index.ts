// The canvas pin layer, split as Leaflet splits its renderers: layer.ts is the plumbing (lifecycle,
// bounds and zoom transforms, events to React), painter.ts draws, hit-grid.ts answers "which pin is
// here", drag.ts is the dragging handler, pin-set.ts holds the pins in drawing order, options.ts the
// layer's options and their defaults.
export { PinLayer } from './layer';
export type { PinLayerOptions } from './options';
export { PinDrag } from './drag';
export { UNNAMED, isUnnamed, type DrawInfo, type MovePreview, type Pin } from './types';
export { PinClusters, isCluster, type ClusterMark } from './clusters';
