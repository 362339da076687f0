// Builds the renderer into dist/renderer with relative URLs (base './'), so the same files load from
// the browser host's http://127.0.0.1 origin and from Electron's app:// origin. The output has no
// inline script and no eval, so it runs under the hosts' CSP (script-src 'self').
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

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
