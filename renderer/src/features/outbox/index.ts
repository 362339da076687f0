// The outbox feature's public face: what other features may use of it (the shell loads the panel
// itself when its tab is opened, app/lazy-parts.ts).
export { OutboxEntry } from './outbox-panel';
