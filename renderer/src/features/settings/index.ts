// The settings feature's public face: what the shell and other features may use of it. The Settings
// panel itself is not here: the shell loads it when it is opened (app/lazy-parts.ts).
export { Onboarding } from './onboarding';
export { ThemeToggle } from './theme-choice';
export { RefusalNotice } from './connection-test';
