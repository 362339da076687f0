// The settings feature's public face: what the shell and other features may use of it.
export { SettingsPanel } from './settings-panel';
export { Onboarding } from './onboarding';
export { ThemeToggle } from './theme-choice';
export { RefusalNotice } from './connection-test';
