// The CLI has no import cycle: every relative import of electron/cli/**/*.ts (type-only ones too,
// and `export … from`) read from the source text with TypeScript's own pre-processor, then a
// depth-first search over the files. A cycle fails the test with its path, file by file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CLI = resolve('electron/cli');

/** The .ts files below `root`, by absolute path. */
function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((path) => path.endsWith('.ts') && statSync(path).isFile());
}

/** Where a relative specifier of `from` lands, as bundler resolution finds a .ts file; null outside `files`. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
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

describe('imports of the CLI', () => {
  it('finds a cycle, through type-only and multi-line imports and re-exports, and names its files', () => {
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
  });

  it('has no import cycle anywhere in electron/cli', () => {
    const files = sourceFiles(CLI);
    const graph = importGraph(new Map(files.map((path) => [path, readFileSync(path, 'utf8')])));
    // The walk saw the real program: main.ts reaches the commands and the I/O module.
    expect(graph.get(join(CLI, 'main.ts'))).toEqual(expect.arrayContaining([join(CLI, 'io.ts'), join(CLI, 'call.ts'), join(CLI, 'commands', 'index.ts')]));
    const cycles = findCycles(graph).map((cycle) => show(cycle, CLI));
    expect(cycles, `import cycles in electron/cli:\n${cycles.join('\n')}`).toEqual([]);
  });
});
