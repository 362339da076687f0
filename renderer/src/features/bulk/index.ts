// The bulk feature's public face: what other features may use of it.
export { saveFile } from './files';
