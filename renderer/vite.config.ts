// Builds the renderer into dist/renderer with relative URLs (base './'), so the same files load from
// the browser host's http://127.0.0.1 origin and from Electron's app:// origin. The output has no
// inline script and no eval, so it runs under the hosts' CSP (script-src 'self').
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/**
 * The page's two steps, found from the module graph once it is built (bootSplit's buildEnd): the
 * entry (app/boot.ts) and what it imports statically stay in the entry's own small chunk, which starts
 * the first API calls as soon as it arrives; what the entry's dynamic import (app/main.tsx) imports
 * statically, besides those, is the first screen. Anything only a later `import()` reaches (a tab's
 * panel, a dialog, the site form) is left out of both and arrives when it is first opened.
 */
const bootModules = new Set<string>();
const firstModules = new Set<string>();
/** The entry chunk's most, in bytes: past it, something heavy joined the boot (see app/boot.ts). */
const BOOT_BUDGET = 48 * 1024;

/**
 * The first screen is one chunk: left to itself the bundler splits the modules the lazy parts share
 * with it into a dozen small files, twenty requests to the host before the page can run instead of two.
 */
function firstScreen(id: string): boolean {
  return firstModules.has(id);
}

/** Libraries that must not reach the first screen: zod (the schemas come with the parts that validate). */
const NOT_FIRST = /node_modules[\\/]zod[\\/]/;

/**
 * zod 4 compiles object parsers with `new Function` unless told not to; under the hosts' CSP (no
 * 'unsafe-eval') its probe would be refused and reported as a policy violation. The page's schemas
 * come with whichever lazy part loads zod first, so the setting is made where zod defines it: in its
 * core module, before any schema can be built, in whatever chunk that module lands.
 */
function zodJitless(): Plugin {
  const core = /node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/;
  let seen = false;
  return {
    name: 'sitewalk-zod-jitless',
    apply: 'build',
    transform(code, id) {
      if (!core.test(id)) return null;
      if (!/export function config\(/.test(code)) this.error(`${id} no longer defines config(): set zod's jitless option another way.`);
      seen = true;
      return { code: `${code}\nconfig({ jitless: true });\n`, map: null };
    },
    buildEnd() {
      const zodInBuild = [...this.getModuleIds()].some((id) => /node_modules[\\/]zod[\\/]/.test(id));
      if (zodInBuild && !seen) this.error('zod is in the build but its core module (zod/v4/core/core.js) was not: its jitless setting was not made.');
    },
  };
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
      const walk = (into: Set<string>, id: string) => {
        // The bundler's own helpers (\0-prefixed ids) go where it puts them.
        if (into.has(id) || bootModules.has(id) || id.startsWith('\0')) return;
        into.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) walk(into, next);
      };
      bootModules.clear();
      firstModules.clear();
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      for (const entry of entries) walk(bootModules, entry);
      const firstScreenEntries = [...bootModules].flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []);
      for (const entry of firstScreenEntries) walk(firstModules, entry);
    },
    generateBundle(_options, bundle) {
      for (const id of [...bootModules, ...firstModules].filter((id) => NOT_FIRST.test(id))) {
        // The way it came, for the message: importer by importer back to the entry.
        const chain = [id];
        for (let at = id; !this.getModuleInfo(at)?.isEntry && chain.length < 12;) {
          const by = this.getModuleInfo(at)?.importers.find((importer) => bootModules.has(importer) || firstModules.has(importer));
          if (!by) break;
          chain.unshift(by);
          at = by;
        }
        const short = (step: string) => step.replace(/^.*?(renderer|electron|node_modules)[\\/]/, '$1/');
        this.error(`${short(id)} is in the first screen, imported through ${chain.map(short).join(' → ')}: import what the first screen needs from a module without schemas (renderer/vite.config.ts).`);
      }
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
  plugins: [react(), zodJitless(), bootSplit()],
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
