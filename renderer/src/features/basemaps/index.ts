// The basemaps feature's public face: what the shell and other features may use of it. Its settings
// card is loaded with the Settings panel (app/lazy-parts.ts), so it is not named here.
export { BasemapControls } from './basemap-controls';
