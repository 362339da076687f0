// The location feature's public face: what the shell and other features may use of it.
export { LocationControl, type StakeRequest } from './location-control';
export type { StakeResult } from './stake-panel';
export { StakeFromForm } from './stake-from-form';
export { PositionSettings } from './position-settings';
export { pickedFix } from './picked-fix';
export { accuracyNote, formatAccuracy } from './location-view';
export { entryMeasurement, measurementFor, measurementText, siteMeasurement } from './gate-view';
