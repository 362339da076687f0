// The pin layer's options with their defaults, apart from the layer so that its parts (the pointer
// handler) can read them without importing the layer that owns them.
import type L from 'leaflet';
import type { ClusterMark } from './clusters';
import { PRESS_DEFAULTS } from './press';
import type { DrawInfo, Pin } from './types';

export interface PinLayerOptions {
  /** Extra canvas around the view (fraction of its size), so short pans show pins before the redraw. */
  padding: number;
  /** More pins than this in view: draw compact dots instead of full pins. */
  compactAbove: number;
  /** Below this zoom: always compact dots. */
  compactBelowZoom: number;
  /** A press that moves less than this (pixels) is a click; more, and it pans or drags. */
  clickTolerance: number;
  /** A finger or pen held still this long on a pin opens its menu (ms). */
  longPressMs: number;
  /** Pins closer than this (pixels) are clustered; 0 switches clustering off. */
  clusterRadius: number;
  /** The last zoom with clusters: from the next one on, every pin is drawn. */
  clusterMaxZoom: number;
  /** From this zoom on, site names are drawn beside full pins (overlapping names are skipped). */
  labelsFromZoom: number;
  /** A click on a pin; the event says which keys were held (Shift, Ctrl/Cmd add it to the selection). */
  onPinClick?: (id: string, event?: MouseEvent) => void;
  onPinDrop?: (id: string, latlng: L.LatLng) => void;
  /** Right click on a pin, or a long press with a finger or pen. */
  onPinMenu?: (id: string, containerPoint: L.Point) => void;
  /** The pointer is over a pin, a cluster, or nothing. */
  onHover?: (item: Pin | ClusterMark | null, containerPoint: L.Point | null) => void;
  /** Called after every redraw (tests and the benchmark wait for it). */
  onDrawn?: (info: DrawInfo) => void;
}

export const PIN_LAYER_DEFAULTS: PinLayerOptions = {
  padding: 0.3,
  compactAbove: 600,
  compactBelowZoom: 7,
  clusterRadius: 44,
  clusterMaxZoom: 12,
  labelsFromZoom: 14,
  ...PRESS_DEFAULTS,
};
