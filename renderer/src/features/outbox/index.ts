// The outbox feature's public face: what the shell and other features may use of it.
export { OutboxPanel, OutboxEntry } from './outbox-panel';
