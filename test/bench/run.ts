// `npm run bench`: runs every benchmark group the issues name, one after another (so no group steals
// CPU from another), and prints one table; `--json FILE` also writes the figures for machines.
// A group whose module is missing, fails to load, throws or runs past its time limit becomes a
// "not run: <reason>" row — the other groups still run and print. Exit 0 only when every selected
// group produced figures.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchFigure } from './figures';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const projectDir = path.resolve(benchDir, '..', '..');

export interface BenchGroup {
  /** What `--only` takes. */
  name: string;
  /** File under test/bench/, without extension. */
  file: string;
  /** The async function the file exports, returning BenchFigure[]. */
  exportName: string;
  /** One line for `--help`. */
  about: string;
  /** Part of another group's figures, for a closer look: run only when `--only` names it. */
  namedOnly?: boolean;
}

export const GROUPS: readonly BenchGroup[] = [
  { name: 'outbox', file: 'outbox', exportName: 'benchOutbox', about: '10,000 durable enqueues + sync, beside a JSON document rewritten per change' },
  { name: 'map', file: 'map', exportName: 'benchMap', about: 'the map with thousands of pins' },
  { name: 'bulk', file: 'bulk', exportName: 'benchBulk', about: 'bulk import of large CSV/KML/GeoJSON files' },
  { name: 'peers', file: 'peers', exportName: 'benchPeers', about: 'client CPU per SOAP 1.1 site edit: ours, the soap npm package and bare undici, at concurrency 1 and 8' },
  { name: 'sync', file: 'sync', exportName: 'benchSync', about: 'edits through the outbox at 25/100/300 ms latency × concurrency 4/8/16, beside the ideal' },
  { name: 'startup', file: 'startup', exportName: 'benchStartup', about: 'start-up to first paint and Node RSS at 50,000 sites beside 1,000, first paint at 1,000 beside a bare Leaflet page, register load at 100,000' },
  { name: 'paint', file: 'startup', exportName: 'benchFirstPaint', about: 'first paint at 1,000 sites beside a bare Leaflet page in the same Chromium (the start-up group includes it)' },
  { name: 'paint-scale', file: 'startup', exportName: 'benchPaintAtScale', about: 'first paint at 50,000 sites beside 1,000, with where each page spent its time (the start-up group includes it; run only when named)', namedOnly: true },
  { name: 'nearest', file: 'nearest', exportName: 'benchNearest', about: 'nearest site for 5,000 EUS submissions among 50,000 sites, beside measuring every pair' },
  { name: 'redact', file: 'redact', exportName: 'benchRedact', about: 'a call with a multi-MB answer: the key removed from what is kept or shown, beside the whole-body pass it made before' },
  { name: 'store', file: 'store', exportName: 'benchStore', about: '10,000 enqueues in one transaction, a history page of 50 out of 100,000, the outbox listing a page is sent with 10,000 queued, `outbox --json` while the app runs' },
];

/** Generous: a group is a few minutes at most on 2 cores; past this it is reported, not waited for. */
export const DEFAULT_GROUP_TIMEOUT_S = 600;

export type GroupOutcome =
  | { group: string; ran: true; figures: BenchFigure[]; seconds: number }
  | { group: string; ran: false; reason: string; seconds: number };

/** Loads a group's bench function; the default imports test/bench/<file>.ts. */
export type GroupLoader = (group: BenchGroup) => Promise<() => Promise<unknown>>;

/** A loader failure that is a sentence to print, not a stack trace. */
class NotRun extends Error {}

export const importGroup: GroupLoader = async (group) => {
  const file = path.join(benchDir, `${group.file}.ts`);
  const shown = path.relative(projectDir, file);
  if (!existsSync(file)) throw new NotRun(`${shown} does not exist yet`);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new NotRun(`${shown} failed to load: ${messageOf(error)}`);
  }
  const bench = module[group.exportName];
  if (typeof bench !== 'function') throw new NotRun(`${shown} does not export ${group.exportName}()`);
  return bench as () => Promise<unknown>;
};

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

/** Why a bench's return value cannot be printed, or null when it is a valid BenchFigure[]. */
export function figureProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return `returned ${value === null ? 'null' : typeof value}, not a list of figures`;
  if (value.length === 0) return 'returned no figures';
  for (const [index, figure] of value.entries()) {
    const f = figure as Partial<BenchFigure> | null;
    if (f === null || typeof f !== 'object') return `figure ${index + 1} is not an object`;
    if (typeof f.name !== 'string' || f.name === '') return `figure ${index + 1} has no name`;
    if (typeof f.value !== 'number' || !Number.isFinite(f.value)) return `figure "${f.name}" has no finite value`;
    if (typeof f.unit !== 'string') return `figure "${f.name}" has no unit`;
    for (const key of ['baseline', 'ratio'] as const) {
      const v = f[key];
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) return `figure "${f.name}" has a ${key} that is not a finite number`;
    }
  }
  return null;
}

export interface RunOptions {
  groups?: readonly BenchGroup[];
  load?: GroupLoader;
  timeoutMs?: number;
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
}

export async function runGroups(options: RunOptions = {}): Promise<GroupOutcome[]> {
  const groups = options.groups ?? GROUPS;
  const load = options.load ?? importGroup;
  const timeoutMs = options.timeoutMs ?? DEFAULT_GROUP_TIMEOUT_S * 1000;
  const progress = options.progress ?? (() => {});
  const outcomes: GroupOutcome[] = [];
  for (const group of groups) {
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    progress(`bench: ${group.name}…`);
    let timer: NodeJS.Timeout | undefined;
    try {
      const bench = await load(group);
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new NotRun(`no result after ${timeoutMs / 1000} s`)), timeoutMs);
      });
      const value = await Promise.race([bench(), timedOut]);
      const problem = figureProblem(value);
      if (problem !== null) throw new NotRun(problem);
      outcomes.push({ group: group.name, ran: true, figures: value as BenchFigure[], seconds: seconds() });
      progress(`bench: ${group.name} done in ${seconds().toFixed(1)} s`);
    } catch (error) {
      const reason = messageOf(error);
      outcomes.push({ group: group.name, ran: false, reason, seconds: seconds() });
      progress(`bench: ${group.name} not run: ${reason}`);
    } finally {
      clearTimeout(timer);
    }
  }
  return outcomes;
}

/** Three significant digits, thousands separated; plain integers stay whole. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100 || Number.isInteger(value)) return Math.round(value).toLocaleString('en-US');
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return '0';
  return value.toPrecision(3);
}

export function formatTable(outcomes: readonly GroupOutcome[]): string {
  const header = ['name', 'value', 'unit', 'baseline', 'ratio', 'target / note'];
  const rows: string[][] = [];
  for (const outcome of outcomes) {
    if (!outcome.ran) {
      rows.push([outcome.group, '—', '', '', '', `not run: ${outcome.reason}`]);
      continue;
    }
    for (const figure of outcome.figures) {
      rows.push([
        figure.name,
        formatNumber(figure.value),
        figure.unit,
        figure.baseline === undefined ? '' : formatNumber(figure.baseline),
        figure.ratio === undefined ? '' : `${figure.ratio.toFixed(2)}×`,
        figure.note ?? '',
      ]);
    }
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const numeric = new Set([1, 3, 4]);
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : numeric.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export interface BenchReport {
  generatedAt: string;
  machine: { node: string; platform: string; arch: string; cpus: number; cpuModel: string; loadAverage: number[] };
  figures: { group: string; name: string; value: number; unit: string; baseline: number | null; ratio: number | null }[];
  notRun: { group: string; reason: string }[];
}

export function machineFacts(): BenchReport['machine'] {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}

export function toReport(outcomes: readonly GroupOutcome[], machine = machineFacts(), now = new Date()): BenchReport {
  return {
    generatedAt: now.toISOString(),
    machine,
    figures: outcomes.flatMap((outcome) =>
      outcome.ran
        ? outcome.figures.map((figure) => ({
            group: outcome.group,
            name: figure.name,
            value: figure.value,
            unit: figure.unit,
            baseline: figure.baseline ?? null,
            ratio: figure.ratio ?? null,
          }))
        : [],
    ),
    notRun: outcomes.flatMap((outcome) => (outcome.ran ? [] : [{ group: outcome.group, reason: outcome.reason }])),
  };
}

const USAGE = `Usage: npm run bench -- [--only NAME[,NAME…]] [--json FILE] [--group-timeout SECONDS]

Groups, run in this order:
${GROUPS.map((group) => `  ${group.name.padEnd(11)} ${group.about}`).join('\n')}`;

export interface MainIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export async function main(argv: readonly string[], io: MainIo, options: Omit<RunOptions, 'progress' | 'timeoutMs'> = {}): Promise<number> {
  const groups = options.groups ?? GROUPS;
  let values: { only?: string[]; json?: string; 'group-timeout'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        only: { type: 'string', multiple: true },
        json: { type: 'string' },
        'group-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`${messageOf(error)}\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    io.out(USAGE);
    return 0;
  }

  const wanted = (values.only ?? []).flatMap((value) => value.split(',')).map((name) => name.trim()).filter((name) => name !== '');
  const unknown = wanted.filter((name) => !groups.some((group) => group.name === name));
  if (unknown.length > 0) {
    io.err(`Unknown group ${unknown.map((name) => `"${name}"`).join(', ')}; the groups are ${groups.map((group) => group.name).join(', ')}.`);
    return 2;
  }
  let timeoutMs = DEFAULT_GROUP_TIMEOUT_S * 1000;
  if (values['group-timeout'] !== undefined) {
    const seconds = Number(values['group-timeout']);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      io.err(`--group-timeout takes a number of seconds above 0, not "${values['group-timeout']}".`);
      return 2;
    }
    timeoutMs = seconds * 1000;
  }
  const jsonFile = values.json === undefined ? undefined : path.resolve(values.json);

  const selected = wanted.length === 0 ? groups.filter((group) => group.namedOnly !== true) : groups.filter((group) => wanted.includes(group.name));
  const machine = machineFacts();
  io.err(`bench: ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAverage.join(' ')}`);
  const outcomes = await runGroups({ ...options, groups: selected, timeoutMs, progress: io.err });
  io.out(formatTable(outcomes));

  if (jsonFile !== undefined) {
    try {
      await mkdir(path.dirname(jsonFile), { recursive: true });
      await writeFile(jsonFile, `${JSON.stringify(toReport(outcomes, machine), null, 2)}\n`);
      io.err(`bench: figures written to ${jsonFile}`);
    } catch (error) {
      io.err(`bench: could not write ${jsonFile}: ${messageOf(error)}`);
      return 1;
    }
  }
  return outcomes.every((outcome) => outcome.ran) ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // Ctrl-C or a kill ends the run through process.exit, so the groups' exit handlers stop the
  // processes they started (a SIGKILL cannot be caught: exit-with-parent.mjs covers that).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => process.exit(130));
  const code = await main(process.argv.slice(2), {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
  // A group that timed out may still hold sockets or timers: leave without waiting for them, once
  // stdout has taken the table.
  process.stdout.write('', () => process.exit(code));
}
