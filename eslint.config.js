// Lint: typescript-eslint's recommended rules, the layer rule (below), no file over 400 lines, and a formatter's rules
// (@stylistic) so `npm run lint` also checks the layout; `npx eslint --fix .` applies it.
//
// The layer rule is the architecture a reviewer would otherwise have to remember, read from folder
// names as VS Code does: every import's source and target folders are compared with LAYERS.
import { builtinModules } from 'node:module';
import { dirname, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** Each layer: the folders (or files) it is made of, the layers it may import, and whether Node's builtins are allowed. */
const LAYERS = {
  shared: { paths: ['electron/shared/'], may: ['shared'], node: false },
  node: { paths: ['electron/node/'], may: ['node'], node: true },
  core: { paths: ['electron/core/'], may: ['core', 'shared', 'node'], node: true },
  sandbox: { paths: ['electron/sandbox/'], may: ['sandbox', 'shared', 'node'], node: true },
  cli: { paths: ['electron/cli/'], may: ['cli', 'core', 'shared', 'node', 'sandbox'], node: true },
  hosts: {
    paths: ['electron/main/', 'electron/preload/', 'electron/browser-host/', 'electron/start.ts', 'electron/build/'],
    may: ['hosts', 'core', 'shared', 'node', 'sandbox'],
    node: true,
  },
  renderer: { paths: ['renderer/src/'], may: ['renderer', 'shared'], node: false },
};
/** Only these may import the `electron` package: everything else runs where Electron is absent. */
const ELECTRON_ALLOWED = ['electron/main/', 'electron/preload/'];

/**
 * Inside the renderer, the same idea by folder: the shell (app/) composes everything; a feature uses
 * the map engine, the shared pieces, the API and its own folder, and of another feature only its
 * public face (`features/<name>/index.ts`); the map engine knows no feature; shared knows only the API.
 */
const RENDERER_PARTS = {
  app: ['app', 'features', 'map', 'shared', 'api'],
  features: ['map', 'shared', 'api'],
  map: ['map', 'shared', 'api'],
  shared: ['shared', 'api'],
  api: ['api'],
};

/** A renderer file's part ('features/sites' for a feature), or null outside renderer/src. */
function rendererPartOf(path) {
  const match = /^renderer\/src\/([^/]+)\/(?:([^/]+))?/.exec(path);
  if (!match) return null;
  return match[1] === 'features' && match[2] ? { part: 'features', feature: match[2] } : { part: match[1], feature: null };
}

/** Why an import from `file` to `target` (both relative to the root) crosses the renderer's parts wrongly, or null. */
function rendererPartsProblem(file, target) {
  const from = rendererPartOf(file);
  const to = rendererPartOf(target);
  if (!from || !to || !(from.part in RENDERER_PARTS)) return null;
  if (to.part === 'features') {
    if (from.part === 'app' || (from.part === 'features' && from.feature === to.feature)) return null;
    // Another feature: only through its public face, and never from below the features.
    const face = /^renderer\/src\/features\/[^/]+(\/index(\.tsx?)?)?$/.test(target);
    if (from.part === 'features' && face) return null;
    return from.part === 'features'
      ? `features/${from.feature} may use features/${to.feature} only through its index.ts, not its insides.`
      : `${from.part}/ may not import a feature (features/${to.feature}); the shell composes them.`;
  }
  if (RENDERER_PARTS[from.part].includes(to.part)) return null;
  return `renderer ${from.part === 'features' ? `features/${from.feature}` : `${from.part}/`} may not import ${to.part}/; it may use ${RENDERER_PARTS[from.part].join(', ')}.`;
}
const NODE_BUILTINS = new Set(builtinModules);

function layerOf(path) {
  for (const [name, layer] of Object.entries(LAYERS)) {
    if (layer.paths.some((prefix) => path === prefix || path.startsWith(prefix))) return name;
  }
  return null;
}

const layersRule = {
  meta: { type: 'problem', docs: { description: 'imports follow the layers in ARCHITECTURE.md' }, schema: [] },
  create(context) {
    const file = relative(ROOT, context.filename).split('\\').join('/');
    const from = layerOf(file);
    if (!from) return {};
    const layer = LAYERS[from];
    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      if (specifier === 'electron' && !ELECTRON_ALLOWED.some((prefix) => file.startsWith(prefix))) {
        context.report({ node, message: `${from}: only electron/main and electron/preload may import electron.` });
        return;
      }
      if (specifier.startsWith('.')) {
        const target = posix.normalize(relative(ROOT, resolve(dirname(context.filename), specifier)).split('\\').join('/'));
        const to = layerOf(target) ?? layerOf(`${target}/`);
        if (to && !layer.may.includes(to)) {
          context.report({ node, message: `${from} may not import ${to} ("${specifier}"); it may import ${layer.may.join(', ')}.` });
          return;
        }
        const inside = from === 'renderer' && to === 'renderer' ? rendererPartsProblem(file, target) : null;
        if (inside) context.report({ node, message: `${inside} ("${specifier}")` });
        return;
      }
      const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier.split('/')[0];
      if (!layer.node && (specifier.startsWith('node:') || NODE_BUILTINS.has(bare))) {
        context.report({ node, message: `${from} runs without Node: "${specifier}" is not available there.` });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'test-results/', 'artifacts/', '.tsbuild/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { sitewalk: { rules: { layers: layersRule } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'sitewalk/layers': 'error',
      // Each module one job (issue 21): a file past 400 lines is split by its own sections.
      'max-lines': ['error', { max: 400 }],
    },
  },
  // The formatter: the house layout (2 spaces, single quotes, semicolons, trailing commas on
  // multi-line lists), checked by `npm run lint` and applied by `npx eslint --fix .`.
  stylistic.configs.customize({ indent: 2, quotes: 'single', semi: true, jsx: true, arrowParens: true, braceStyle: '1tbs', commaDangle: 'always-multiline', quoteProps: 'as-needed' }),
  {
    rules: {
      // Long lines are allowed (data tables, messages); wrapping them by rule would hurt reading.
      '@stylistic/max-len': 'off',
      '@stylistic/max-statements-per-line': ['error', { max: 2 }],
      '@stylistic/multiline-ternary': 'off',
      '@stylistic/operator-linebreak': 'off',
      '@stylistic/jsx-one-expression-per-line': 'off',
      '@stylistic/jsx-wrap-multilines': 'off',
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true }],
      '@stylistic/lines-between-class-members': ['error', 'always', { exceptAfterSingleLine: true }],
    },
  },
);
