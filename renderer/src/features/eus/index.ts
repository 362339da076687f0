// The EUS feature's public face: what other features may use of it.
export { EusMap, formatKm } from './eus-map';
