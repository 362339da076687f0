// Builds the renderer into dist/renderer with relative URLs (base './'), so the same files load from
// the browser host's http://127.0.0.1 origin and from Electron's app:// or file:// origin. The output
// has no inline script and no eval, so it runs under the hosts' CSP (script-src 'self').
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Electron 45's Chromium and any current Chromium/Firefox: no need for legacy transforms.
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    // Never inline anything as a data: script; images may be inlined (CSP allows data: images).
    modulePreload: { polyfill: false },
  },
  server: {
    host: '127.0.0.1',
    // The pin pictures live in ../assets, outside the Vite root.
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
  },
});
