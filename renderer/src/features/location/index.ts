// The location feature's public face: what the shell and other features may use of it. Its settings
// card is loaded with the Settings panel (app/lazy-parts.ts), so it is not named here.
export { LocationControl, type StakeRequest } from './location-control';
export type { StakeResult } from './stake-panel';
export { StakeFromForm } from './stake-from-form';
export { pickedFix } from './picked-fix';
export { accuracyNote, formatAccuracy } from './location-view';
export { measurementFor, measurementText } from './gate-view';
