// A Vitest reporter that ends a run with its ten slowest test files, across projects, so that where
// the test loop's time goes is seen on every run rather than measured once. A file's time is what
// the default reporter prints beside it (its tests and hooks), plus the time to import it.
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export interface FileTime {
  file: string;
  project: string;
  /** Tests and hooks, ms. */
  testsMs: number;
  /** Importing the file and what it imports, ms. */
  importMs: number;
}

/** The `count` slowest files, slowest first, by tests + import time. */
export function slowestFiles(times: readonly FileTime[], count = SHOWN): FileTime[] {
  return [...times].sort((a, b) => b.testsMs + b.importMs - (a.testsMs + a.importMs)).slice(0, count);
}

/** The table printed at the end of a run. */
export function slowestTable(times: readonly FileTime[], count = SHOWN): string {
  const rows = slowestFiles(times, count);
  if (rows.length === 0) return '';
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const width = Math.max(...rows.map((row) => row.file.length));
  const lines = rows.map((row) => `  ${seconds(row.testsMs + row.importMs).padStart(8)}  ${row.file.padEnd(width)}  ${row.project} (import ${seconds(row.importMs)})`);
  return [rows.length === 1 ? 'The slowest test file:' : `The ${rows.length} slowest test files:`, ...lines].join('\n');
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const times = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name || 'default',
        testsMs: diagnostic.duration,
        importMs: diagnostic.collectDuration,
      };
    });
    const table = slowestTable(times);
    if (table !== '') process.stdout.write(`\n${table}\n`);
  }
}
