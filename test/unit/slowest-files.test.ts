// The end of `npm test`: the ten slowest test files, by the time of their tests and hooks plus their
// import, slowest first, whichever project ran them.
import { describe, expect, it } from 'vitest';
import { slowestFiles, slowestTable, type FileTime } from '../support/slowest-files';

const file = (name: string, testsMs: number, importMs = 0, project = 'unit'): FileTime => ({ file: name, project, testsMs, importMs });

describe('the slowest test files', () => {
  it('keeps the ten slowest of many, slowest first, counting the import', () => {
    const times = Array.from({ length: 30 }, (_, index) => file(`test/f${index}.test.ts`, index * 100));
    times.push(file('test/imports-a-lot.test.ts', 100, 5_000, 'heavy'));
    const slowest = slowestFiles(times);
    expect(slowest).toHaveLength(10);
    expect(slowest.map((time) => time.file)).toEqual(['test/imports-a-lot.test.ts', ...[29, 28, 27, 26, 25, 24, 23, 22, 21].map((index) => `test/f${index}.test.ts`)]);
  });

  it('prints seconds, the file and its project, and nothing for a run without files', () => {
    const table = slowestTable([file('test/a.test.ts', 1_500, 250), file('test/e2e/b.test.ts', 61_000, 1_000, 'e2e')]);
    expect(table.split('\n')).toEqual([
      'The 2 slowest test files:',
      '    62.0 s  test/e2e/b.test.ts  e2e (import 1.0 s)',
      '     1.8 s  test/a.test.ts      unit (import 0.3 s)',
    ]);
    expect(slowestTable([file('test/a.test.ts', 400)]).split('\n')[0]).toBe('The slowest test file:');
    expect(slowestTable([])).toBe('');
  });
});
