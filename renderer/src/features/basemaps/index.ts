// The basemaps feature's public face: what the shell and other features may use of it.
export { BasemapControls } from './basemap-controls';
export { BasemapSettings } from './basemap-settings';
