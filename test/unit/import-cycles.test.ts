// No import cycle in electron/ or renderer/src: every relative import of their .ts, .tsx and .mjs
// files (type-only ones too, `export … from`, and import() calls) read from the source text with
// TypeScript's own pre-processor, then a depth-first search over the files. A cycle fails the test
// with its path, file by file. One graph for both trees, since the renderer imports electron/shared.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const TREES = ['electron', 'renderer/src'].map((tree) => join(ROOT, tree));
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

/** The .ts files below `root`, by absolute path. */
function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((path) => SOURCE.test(path) && !path.endsWith('.d.ts') && statSync(path).isFile());
}

/** Where a relative specifier of `from` lands, as bundler resolution finds a source file; null outside `files`. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((candidate) => files.has(candidate)) ?? null;
}

/** Each file's imports among `sources` (path → text). */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const files = new Set(sources.keys());
  const graph = new Map<string, string[]>();
  for (const [path, text] of sources) {
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((file) => resolveImport(path, file.fileName, files));
    graph.set(path, [...new Set(imported.filter((target): target is string => target !== null))]);
  }
  return graph;
}

/** The cycles a depth-first search meets (at least one whenever there is any), each as its files in import order, the first repeated at the end. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string): void => {
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (onStack.has(next)) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return cycles;
}

const show = (cycle: string[], root: string) => cycle.map((file) => relative(root, file)).join(' → ');

describe('import cycles', () => {
  it('finds a cycle, through type-only and multi-line imports, re-exports and import() calls, and names its files', () => {
    const root = '/virtual';
    const sources = new Map([
      [`${root}/main.ts`, "import { Command } from 'commander';\nimport {\n  run,\n} from './commands/index';\n"],
      [`${root}/commands/index.ts`, "export { run } from './run';\n"],
      [`${root}/commands/run.ts`, "// imports from '../main' are only named in this comment\nimport type { Io } from '../main.js';\nexport const run = 1;\n"],
      [`${root}/io.ts`, 'export const printJson = 1;\n'],
    ]);
    const cycles = findCycles(importGraph(sources));
    expect(cycles.map((cycle) => show(cycle, root))).toEqual(['commands/index.ts → commands/run.ts → main.ts → commands/index.ts']);

    sources.set(`${root}/commands/run.ts`, "import type { Io } from '../io';\nexport const run = 1;\n");
    expect(findCycles(importGraph(sources))).toEqual([]);

    // A component and its lazily loaded dialog, in .tsx files.
    sources.set(`${root}/app.tsx`, "const Dialog = lazy(() => import('./dialog'));\n");
    sources.set(`${root}/dialog.tsx`, "import { theme } from './app.js';\n");
    expect(findCycles(importGraph(sources)).map((cycle) => show(cycle, root))).toEqual(['app.tsx → dialog.tsx → app.tsx']);
  });

  it('has no import cycle anywhere in electron/ or renderer/src', () => {
    const files = TREES.flatMap(sourceFiles);
    const graph = importGraph(new Map(files.map((path) => [path, readFileSync(path, 'utf8')])));
    // The walk saw the real program: the CLI reaches its commands, the renderer its app and electron/shared.
    expect(graph.get(join(ROOT, 'electron/cli/main.ts'))).toEqual(expect.arrayContaining([join(ROOT, 'electron/cli/io.ts'), join(ROOT, 'electron/cli/commands/index.ts')]));
    expect([...graph.values()].flat().some((target) => target.startsWith(join(ROOT, 'renderer/src/')))).toBe(true);
    expect([...graph.entries()].some(([from, targets]) => from.startsWith(join(ROOT, 'renderer/src/')) && targets.some((target) => target.startsWith(join(ROOT, 'electron/shared/'))))).toBe(true);

    const cycles = findCycles(graph).map((cycle) => show(cycle, ROOT));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });
});
