// Builds the renderer into dist/renderer with relative URLs (base './'), so the same files load from
// the browser host's http://127.0.0.1 origin and from Electron's app:// origin. The output has no
// inline script and no eval, so it runs under the hosts' CSP (script-src 'self').
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/**
 * The modules the first screen does not need: the parts app/lazy-parts.ts and the basemap controls
 * load when opened (bulk dialogs, the other tabs' panels, the settings cards, the download dialog).
 */
const LATER = [
  /renderer[\\/]src[\\/]features[\\/]bulk[\\/](?!bulk-slice)/,
  /renderer[\\/]src[\\/]features[\\/]eus[\\/]/,
  /renderer[\\/]src[\\/]features[\\/]outbox[\\/](outbox-panel|outbox-history|review|index)\./,
  /renderer[\\/]src[\\/]features[\\/]settings[\\/]settings-panel\./,
  /renderer[\\/]src[\\/]features[\\/]location[\\/]position-settings\./,
  /renderer[\\/]src[\\/]features[\\/]basemaps[\\/](basemap-settings|downloaded-tiles|download-dialog)\./,
  /electron[\\/]shared[\\/]bulk[\\/]/,
];
/** The libraries the first screen runs on (the bulk dialogs' file readers are not among them). */
const FIRST_LIBRARIES = /node_modules[\\/](react|react-dom|scheduler|leaflet|supercluster|kdbush|zod)[\\/]/;

/**
 * Everything the first screen needs goes into one chunk: left to itself the bundler splits the modules
 * the lazy parts share with it into a dozen small files, twenty requests to the host before the page
 * can run instead of two.
 */
function firstScreen(id: string): boolean {
  if (id.includes('node_modules')) return FIRST_LIBRARIES.test(id);
  return !LATER.some((later) => later.test(id));
}

const config = {
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Electron 45's Chromium and any current browser: no legacy transforms needed.
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    // The polyfill would be injected as an inline script, which the CSP refuses; not needed anyway.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'first-screen', test: firstScreen }] } } },
  },
  server: {
    host: '127.0.0.1',
    // The pin pictures live in ../assets, outside the Vite root.
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
  },
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build is always the production build, even when started from a test runner that exported
  // NODE_ENV=test (vitest does, and its children inherit it): Vite and the React plugin read
  // NODE_ENV to choose React's development build and JSX runtime.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});
