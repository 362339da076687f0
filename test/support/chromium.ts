// The browser every test and bench runs: Debian's Chromium (never one Playwright downloads; set
// SITEWALK_CHROMIUM for another), headless, with nothing of its own reaching the network (no QUIC,
// no background fetches, no component updates or sync). The e2e files, the components project
// (vitest.config.ts) and the benches all start it from here.
export const CHROMIUM_PATH = process.env.SITEWALK_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
