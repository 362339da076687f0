// Builds the renderer into dist/renderer with relative URLs (base './'), so the same files load from
// the browser host's http://127.0.0.1 origin and from Electron's app:// origin. The output has no
// inline script and no eval, so it runs under the hosts' CSP (script-src 'self').
import { defineConfig, type Plugin, type UserConfig } from 'vite';
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
 * The modules the entry (app/boot.ts) imports statically, found from the module graph once it is
 * built: they stay in the entry's own small chunk, which starts the first API calls as soon as it
 * arrives, and never in the first screen's chunk, which would make the entry wait for all of it.
 */
const bootModules = new Set<string>();
/** The entry chunk's most, in bytes: past it, something heavy joined the boot (see app/boot.ts). */
const BOOT_BUDGET = 48 * 1024;

/**
 * Everything else the first screen needs goes into one chunk: left to itself the bundler splits the
 * modules the lazy parts share with it into a dozen small files, twenty requests to the host before
 * the page can run instead of two.
 */
function firstScreen(id: string): boolean {
  // The bundler's own helpers (\0-prefixed ids) go where it puts them: the entry needs them too.
  if (bootModules.has(id) || id.startsWith('\0')) return false;
  if (id.includes('node_modules')) return FIRST_LIBRARIES.test(id);
  return !LATER.some((later) => later.test(id));
}

/**
 * The boot split: collects the entry's static imports before chunking, preloads the first screen's
 * chunk from index.html (it downloads beside the entry instead of after it has run), and fails the
 * build when the entry chunk has grown past its budget or imports the first screen's chunk statically.
 */
function bootSplit(): Plugin {
  return {
    name: 'sitewalk-boot-split',
    apply: 'build',
    buildEnd() {
      bootModules.clear();
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const walk = (id: string) => {
        if (bootModules.has(id)) return;
        bootModules.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) walk(next);
      };
      entries.forEach(walk);
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        if (chunk.imports.some((file) => bundle[file]?.name === 'first-screen')) this.error(`${chunk.fileName} imports the first screen's chunk statically: the first API calls would wait for all of it (app/boot.ts).`);
        if (chunk.code.length > BOOT_BUDGET) this.error(`${chunk.fileName} is ${chunk.code.length} bytes, over the boot's budget of ${BOOT_BUDGET}: something heavy is imported statically by app/boot.ts.`);
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const first = Object.values(context.bundle ?? {}).find((file) => file.type === 'chunk' && file.name === 'first-screen');
        if (first?.type !== 'chunk') return html;
        // Its stylesheets too, after the entry's (the cascade order main.tsx's imports gave): the
        // dynamic import would otherwise ask for them only once the entry has run.
        const sheets = [...(first.viteMetadata?.importedCss ?? [])].map((file) => `  <link rel="stylesheet" crossorigin href="./${file}">\n`);
        return html.replace('</head>', `  <link rel="modulepreload" crossorigin href="./${first.fileName}">\n${sheets.join('')}  </head>`);
      },
    },
  };
}

const config = {
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), bootSplit()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Electron 45's Chromium and any current browser: no legacy transforms needed.
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    // The polyfill would be injected as an inline script, which the CSP refuses; not needed anyway.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'boot', test: (id: string) => bootModules.has(id), priority: 2 }, { name: 'first-screen', test: firstScreen, priority: 1 }] } } },
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
