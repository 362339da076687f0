// The `npm run bench` runner, with stand-in groups so nothing is measured here: what gets printed and
// written when groups succeed, are missing, throw, return nonsense or never finish.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { BenchFigure } from '../bench/figures';
import { formatNumber, formatTable, importGroup, main, runGroups, type BenchGroup, type GroupLoader } from '../bench/run';
import { expectExamples } from '../support/examples';
import { it } from '../support/fixtures';

const group = (name: string): BenchGroup => ({ name, file: name, exportName: `bench_${name}`, about: name });

const figures: BenchFigure[] = [
  { name: 'SOAP 1.1 edits, concurrency 8', value: 2412.7, unit: 'calls/s', baseline: 611.2, ratio: 3.95, note: 'target ≥ 3×' },
  { name: 'client CPU per call', value: 0.118, unit: 'ms', baseline: 1.4, ratio: 11.9 },
];

function loaderFrom(benches: Record<string, () => Promise<unknown>>): GroupLoader {
  return async (g) => {
    const bench = benches[g.name];
    if (bench === undefined) throw new Error(`test/bench/${g.file}.ts does not exist yet`);
    return bench;
  };
}

function capture(): { out: string[]; err: string[]; io: { out: (t: string) => void; err: (t: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t) => out.push(t), err: (t) => err.push(t) } };
}

describe('bench runner', () => {
  it('prints "not run" with the reason for a missing, failing or malformed group, and still runs the rest', async () => {
    const outcomes = await runGroups({
      groups: [group('missing'), group('throws'), group('nonsense'), group('good')],
      load: loaderFrom({
        throws: async () => {
          throw new Error('the sandbox did not print its URL');
        },
        nonsense: async () => [{ name: 'x', value: Number.NaN, unit: 'ms' }],
        good: async () => figures,
      }),
    });
    expect(outcomes.map((o) => [o.group, o.ran])).toEqual([
      ['missing', false],
      ['throws', false],
      ['nonsense', false],
      ['good', true],
    ]);
    const table = formatTable(outcomes);
    expect(table).toContain('not run: test/bench/missing.ts does not exist yet');
    expect(table).toContain('not run: the sandbox did not print its URL');
    expect(table).toContain('not run: figure "x" has no finite value');
    expect(table).toMatch(/SOAP 1\.1 edits, concurrency 8\s+2,413\s+calls\/s\s+611\s+3\.95×\s+target ≥ 3×/);
    expect(table).toMatch(/client CPU per call\s+0\.118\s+ms\s+1\.40\s+11\.90×/);
  });

  it('gives up on a group that never finishes and moves on to the next', async () => {
    const outcomes = await runGroups({
      groups: [group('hangs'), group('good')],
      load: loaderFrom({ hangs: () => new Promise(() => {}), good: async () => figures }),
      timeoutMs: 50,
    });
    expect(outcomes[0]).toMatchObject({ group: 'hangs', ran: false, reason: 'no result after 0.05 s' });
    expect(outcomes[1]).toMatchObject({ group: 'good', ran: true });
  });

  it('names the file when a bench module is not there', async () => {
    await expect(importGroup({ name: 'ghost', file: 'no-such-bench', exportName: 'benchGhost', about: '' })).rejects.toThrow(
      'test/bench/no-such-bench.ts does not exist yet',
    );
  });

  it('writes name, value, unit, baseline and ratio of every figure to the --json file', async ({ tempDir }) => {
    const file = path.join(tempDir, 'out', 'bench.json');
    const { io, out } = capture();
    const code = await main(['--json', file], io, {
      groups: [group('good'), group('missing')],
      load: loaderFrom({ good: async () => figures }),
    });
    expect(code).toBe(1);
    expect(out.join('\n')).toContain('not run: test/bench/missing.ts does not exist yet');
    const report = JSON.parse(await readFile(file, 'utf8')) as { figures: unknown[]; notRun: unknown[]; machine: { cpus: number } };
    expect(report.figures).toEqual([
      { group: 'good', name: 'SOAP 1.1 edits, concurrency 8', value: 2412.7, unit: 'calls/s', baseline: 611.2, ratio: 3.95 },
      { group: 'good', name: 'client CPU per call', value: 0.118, unit: 'ms', baseline: 1.4, ratio: 11.9 },
    ]);
    expect(report.notRun).toEqual([{ group: 'missing', reason: 'test/bench/missing.ts does not exist yet' }]);
    expect(report.machine.cpus).toBeGreaterThan(0);
  });

  it('runs only the groups named by --only and exits 0 when they all ran', async () => {
    const ran: string[] = [];
    const { io, out } = capture();
    const bench = (name: string) => async () => {
      ran.push(name);
      return [{ name: `${name} figure`, value: 1, unit: 'x' }];
    };
    const code = await main(['--only', 'b,c'], io, { groups: [group('a'), group('b'), group('c')], load: loaderFrom({ a: bench('a'), b: bench('b'), c: bench('c') }) });
    expect(code).toBe(0);
    expect(ran).toEqual(['b', 'c']);
    expect(out.join('\n')).not.toContain('a figure');
  });

  it('runs a group that only looks closer at another one only when --only names it', async () => {
    const ran: string[] = [];
    const load: GroupLoader = async (g) => async () => {
      ran.push(g.name);
      return figures;
    };
    const groups = [group('startup'), { ...group('paint-scale'), namedOnly: true }];
    expect(await main([], capture().io, { groups, load })).toBe(0);
    expect(ran).toEqual(['startup']);
    expect(await main(['--only', 'paint-scale'], capture().io, { groups, load })).toBe(0);
    expect(ran).toEqual(['startup', 'paint-scale']);
  });

  it('refuses an unknown group name or a bad time limit with a usage error and runs nothing', async () => {
    const ran: string[] = [];
    const load: GroupLoader = async (g) => async () => {
      ran.push(g.name);
      return figures;
    };
    const unknown = capture();
    expect(await main(['--only', 'peerz'], unknown.io, { groups: [group('peers')], load })).toBe(2);
    expect(unknown.err.join('\n')).toContain('Unknown group "peerz"; the groups are peers.');
    const badTimeout = capture();
    expect(await main(['--group-timeout', 'soon'], badTimeout.io, { groups: [group('peers')], load })).toBe(2);
    expect(badTimeout.err.join('\n')).toContain('--group-timeout takes a number of seconds above 0, not "soon".');
    expect(ran).toEqual([]);
  });

  it('shows numbers to three significant digits with thousands separated', () => {
    expectExamples(formatNumber, [[12345.678, '12,346'], [42.25, '42.3'], [3.14159, '3.14'], [0.012345, '0.0123'], [5000, '5,000']]);
  });
});
