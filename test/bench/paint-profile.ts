// Where the first paint at 1,000 sites (SITES=N: another count) goes, beside the bare Leaflet page:
// each page opened once with a Chromium performance trace and a CPU profile until the pins (or the
// marker) are drawn: the main thread's tasks summed by kind (script compile and run, style and layout, paint), the CPU samples by
// where their code came from (a package or a folder of ours, through the build's source maps) overall
// and per 50 ms, the page's requests (when each left and ended) and the long tasks.
// `npx tsx test/bench/paint-profile.ts [rounds]` prints it (DEPTH=6 names our files instead of their
// folders; TASK_MS=5 lists the tasks over 5 ms, not 20); the figures are the bench's (`npm run bench
// -- --only paint`): tracing slows the page.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { ensureRenderer } from '../../electron/main/build';
import { spawnApp } from './app-process';
import { serveBareLeaflet } from './bare-leaflet';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import { raiseQuota, startSandboxProcess } from './peers';
import { prepare } from './startup';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'renderer', 'assets');
const maps = new Map<string, SourceMapConsumer | null>();
/** The source a built file's line and column came from, grouped: a package, or a folder of ours. */
function origin(url: string, line: number, column: number): string {
  if (!url) return '(native)';
  const file = url.split('/').pop()!.replace(/[?#].*$/, '');
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMapConsumer(JSON.parse(readFileSync(path.join(DIST, `${file}.map`), 'utf8'))));
    } catch {
      maps.set(file, null);
    }
  }
  const map = maps.get(file);
  if (!map) return file;
  const source = map.originalPositionFor({ line: line + 1, column }).source ?? '(unmapped)';
  const clean = source.replace(/^(\.\.\/)+/, '');
  const pkg = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(clean);
  return pkg ? `npm ${pkg[1]}` : clean.split('/').slice(0, Number(process.env['DEPTH'] ?? 4)).join('/');
}

/** The CPU samples' time by origin, and by 50 ms window the origins that took most of it. */
function cpuSummary(profile: CpuProfile): void {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const total = new Map<string, number>();
  const windows = new Map<number, Map<string, number>>();
  let t = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    const frame = nodes.get(id)!.callFrame;
    const where = frame.functionName === '(idle)' || frame.functionName === '(program)' || frame.functionName === '(garbage collector)' ? frame.functionName : origin(frame.url, frame.lineNumber, frame.columnNumber);
    total.set(where, (total.get(where) ?? 0) + dt);
    const w = Math.floor(t / 50_000);
    const inWindow = windows.get(w) ?? new Map<string, number>();
    inWindow.set(where, (inWindow.get(where) ?? 0) + dt);
    windows.set(w, inWindow);
  });
  console.log('  CPU self time by origin (ms):');
  for (const [k, us] of [...total].sort((a, b) => b[1] - a[1]).filter(([, us]) => us > 3000)) console.log(`  ${(us / 1000).toFixed(0).padStart(5)}  ${k}`);
  console.log('  by 50 ms from the profile\'s start (busy ms: top origins):');
  for (const [w, inWindow] of [...windows].sort((a, b) => a[0] - b[0])) {
    const busy = [...inWindow].filter(([k]) => k !== '(idle)');
    const sum = busy.reduce((s, [, us]) => s + us, 0);
    if (sum < 5000) continue;
    const top = busy.sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`);
    console.log(`  ${String(w * 50).padStart(5)}: ${(sum / 1000).toFixed(0).padStart(3)}  ${top.join(', ')}`);
  }
}

const CONTEXT = { viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 } as const;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'blink.user_timing', 'loading'].join(',');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; frame?: string } };
}

/** The kind a main-thread task's time counts as, by the trace event that opens it. */
function kind(name: string): string {
  if (/Compile|Parse|v8\.compile|CacheScript/.test(name)) return 'script compile';
  if (/EvaluateScript|FunctionCall|v8\.run|TimerFire|FireAnimationFrame|RunMicrotasks|EventDispatch|v8\.callFunction|ResourceReceivedData|ResourceFinish/.test(name)) return 'script run';
  if (/Layout|RecalculateStyles|UpdateLayoutTree|ParseAuthorStyleSheet|HitTest/.test(name)) return 'style + layout';
  if (/Paint|Composite|Layerize|PrePaint|Commit|RasterTask|Decode/.test(name)) return 'paint';
  if (/ParseHTML/.test(name)) return 'html parse';
  return `other (${name})`;
}

/** Opens `url` in a fresh context with a trace running until `drawn` holds; the trace's events and ms taken. */
async function traced(browser: Browser, url: string, drawn: (page: Page) => Promise<unknown>): Promise<{ ms: number; events: TraceEvent[]; resources: Array<{ name: string; start: number; end: number; kib: number }>; profile: CpuProfile }> {
  const context = await browser.newContext(CONTEXT);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
    const opened = performance.now();
    await page.goto(url);
    await drawn(page);
    const ms = performance.now() - opened;
    console.log(await page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name}@${m.startTime.toFixed(0)}`).join('  ')));
    const resources = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => {
        const r = e as PerformanceResourceTiming;
        return { name: r.name.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, ''), start: r.startTime, end: r.responseEnd, kib: r.encodedBodySize / 1024 };
      }),
    );
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await cdp.send('Tracing.end');
    await complete;
    return { ms, events, resources, profile };
  } finally {
    await context.close();
  }
}

/** The main thread's time from navigation to the last frame before `ms`, summed by kind; long tasks. */
function summarise(label: string, run: Awaited<ReturnType<typeof traced>>): void {
  const main = run.events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && run.events.some((x) => x.pid === e.pid && x.name === 'EvaluateScript'));
  if (!main) throw new Error(`${label}: no renderer main thread in the trace`);
  const onMain = run.events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const start = Math.min(...run.events.filter((e) => e.pid === main.pid && e.name === 'navigationStart').map((e) => e.ts), ...onMain.map((e) => e.ts));
  const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const byKind = new Map<string, number>();
  for (const task of tasks) {
    // A task's time goes to the kinds of its direct children; what they leave is the task's own.
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur! && e.name !== 'RunTask');
    const top = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!));
    let covered = 0;
    for (const e of top) {
      byKind.set(kind(e.name), (byKind.get(kind(e.name)) ?? 0) + e.dur!);
      covered += e.dur!;
    }
    byKind.set('task overhead', (byKind.get('task overhead') ?? 0) + Math.max(0, task.dur! - covered));
  }
  const busy = tasks.reduce((sum, t) => sum + t.dur!, 0);
  console.log(`\n== ${label}: ${run.ms.toFixed(0)} ms to drawn (as the bench waits); main thread busy ${(busy / 1000).toFixed(0)} ms in ${tasks.length} tasks`);
  for (const [k, us] of [...byKind].sort((a, b) => b[1] - a[1]).filter(([, us]) => us > 2000)) console.log(`  ${(us / 1000).toFixed(0).padStart(5)} ms  ${k}`);
  cpuSummary(run.profile);
  console.log('  requests (ms after the page opened: left → ended, KiB):');
  for (const r of run.resources) console.log(`  ${r.start.toFixed(0).padStart(5)} → ${r.end.toFixed(0).padStart(5)}  ${r.kib.toFixed(1).padStart(7)}  ${r.name}`);
  // The cluster worker's thread beside the main one: when it started, ran its script and built.
  const workers = run.events.filter((e) => e.name === 'thread_name' && e.pid === main.pid && /Worker/.test(e.args?.name ?? ''));
  for (const worker of workers) {
    const onWorker = run.events.filter((e) => e.pid === worker.pid && e.tid === worker.tid && e.ph === 'X' && e.dur !== undefined && e.dur > 2000 && e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
    const top = onWorker.filter((e) => !onWorker.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur!));
    console.log(`  ${worker.args?.name}: ${top.map((e) => `${((e.ts - start) / 1000).toFixed(0)}+${(e.dur! / 1000).toFixed(0)} ${e.name}`).join(', ')}`);
  }
  console.log('  tasks over 20 ms (ms after navigation start: length, what):');
  for (const t of tasks.filter((t) => t.dur! > (process.env['TASK_MS'] ? Number(process.env['TASK_MS']) * 1000 : 20_000))) {
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur! && e.dur! > 5000 && e.name !== 'RunTask');
    const what = inside.map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.split('/').pop()})` : ''} ${(e.dur! / 1000).toFixed(0)}`).slice(0, 6);
    console.log(`  ${((t.ts - start) / 1000).toFixed(0).padStart(5)}: ${(t.dur! / 1000).toFixed(0).padStart(4)} ms  ${what.join(', ')}`);
  }
}

const rounds = Number(process.argv[2] ?? 1);
const sites = Number(process.env['SITES'] ?? 1_000);
const sandbox = await startSandboxProcess();
let dataDir: string | null = null;
try {
  await raiseQuota(sandbox);
  dataDir = (await prepare(sandbox, sites)).dataDir;
} finally {
  await sandbox.stop();
}
await ensureRenderer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
const bare = await serveBareLeaflet();
try {
  for (let round = 0; round < rounds; round++) {
    summarise('bare Leaflet', await traced(browser, bare.url, (page) => page.waitForFunction(() => document.querySelector<HTMLImageElement>('.leaflet-marker-icon')?.complete === true, null, { polling: 'raf' })));
    const copy = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-profile-'));
    await cp(dataDir!, copy, { recursive: true });
    const app = await spawnApp(copy);
    try {
      await app.call('saveSettings', { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png' });
      summarise(`Sitewalk, ${sites.toLocaleString('en')} sites`, await traced(browser, app.url, (page) => page.waitForFunction(() => Number(document.querySelector('[data-testid="map"]')?.getAttribute('data-pins-drawn') ?? 0) > 0, null, { polling: 'raf' })));
    } finally {
      await app.stop();
      await rm(copy, { recursive: true, force: true });
    }
  }
} finally {
  await bare.close();
  await browser.close();
  await rm(dataDir!, { recursive: true, force: true });
}
