// Our service client beside what an integrator would otherwise use — the `soap` npm package driven by
// the sandbox's WSDL — sending the same SitesAPI edits of existing sites over SOAP 1.1 to the same
// sandbox, and beside the floor under any client on this transport: bare undici (the engine of our
// Node transport, electron/core/service/node-transport.ts) sending the same request prebuilt and
// reading the answer whole, nothing else. The sandbox runs in a child process, so process.cpuUsage()
// here is the clients' cost alone. The three alternate in short blocks after a warm-up, so a noisy
// machine slows them alike and the ratios hold even when the absolute figures move. Every CPU figure
// is set beside the bare-undici floor: what is left above it is a client's own work (validation,
// building the envelope, reading the answer, classifying errors); ours should stay within 2× of it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClientAsync } from 'soap';
import { createServiceClient } from '../../electron/core/service/client';
import { Agent } from 'undici';
import type { ServiceClient } from '../../electron/core/service/types';
import type { BenchFigure } from './figures';
import { inspect } from '../support/service-state';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const DEMO = { account: '10001', key: 'sandbox-demo-key' } as const;
const SERVICE_PATH = '/towercoverage.asmx';
const NAMESPACE = 'http://tempuri.org/';

export interface SandboxProcess {
  /** Base URL, no trailing slash. */
  url: string;
  servicePath: string;
  namespace: string;
  /** JSON from the sandbox's inspection endpoint (/_sandbox/…); throws on a non-2xx answer. */
  inspect<T = unknown>(pathUnderSandbox: string, init?: { method?: string; body?: unknown }): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts `electron/sandbox/cli.ts --port 0 …` in a child Node process and resolves once it has
 * printed its URL. The child is killed when stop() is called or this process exits.
 */
// The same guard as the bench's app process (app-process.ts): the child's stdin is a pipe from the
// bench, which closes however the bench ends, and the child then stops.
const EXIT_WITH_PARENT = pathToFileURL(path.join(projectDir, 'test', 'bench', 'exit-with-parent.mjs')).href;

export async function startSandboxProcess(extraArgs: readonly string[] = []): Promise<SandboxProcess> {
  const cli = path.join(projectDir, 'electron', 'sandbox', 'cli.ts');
  // It ends with the bench even when the bench is SIGKILLed (no exit handler runs then).
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', EXIT_WITH_PARENT, cli, '--port', '0', '--host', '127.0.0.1', '--quiet', ...extraArgs], {
    cwd: projectDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the sandbox printed no URL within 60 s:\n${output.slice(-800)}`)), 60_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) {
        clearTimeout(timer);
        detach();
        resolve(match[0]);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(new Error(`the sandbox exited (${signal ?? `code ${code}`}) before printing its URL:\n${output.slice(-800)}`));
    const detach = (): void => {
      child.stdout?.off('data', onOutput);
      child.stderr?.off('data', onOutput);
      child.off('error', fail);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('error', fail);
    child.once('exit', onExit);
  });
  // From here its output is drained unread: a sandbox that logs every call must neither block on a
  // full pipe nor cost this process (whose CPU is what the benchmark measures) any parsing.
  child.stdout?.resume();
  child.stderr?.resume();

  return {
    url,
    servicePath: SERVICE_PATH,
    namespace: NAMESPACE,
    inspect: (pathUnderSandbox, init) => inspect(url, pathUnderSandbox, init),
    stop: () => stopChild(child, killOnExit),
  };
}

async function stopChild(child: ChildProcess, killOnExit: () => void): Promise<void> {
  process.removeListener('exit', killOnExit);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** IDs of the sites the sandbox holds, whatever the exact shape of its /_sandbox/sites answer. */
export async function sandboxSiteIds(sandbox: SandboxProcess): Promise<string[]> {
  const answer = await sandbox.inspect<unknown>('sites');
  const list = Array.isArray(answer) ? answer : ((answer as { sites?: unknown[] }).sites ?? Object.values(answer as object));
  const ids = list
    .map((site) => {
      const s = site as { id?: unknown; siteId?: unknown };
      return s.id ?? s.siteId;
    })
    .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
    .map(String);
  if (ids.length === 0) throw new Error('the sandbox lists no sites to edit');
  return ids;
}

/** Gives the demo account more API calls than any benchmark makes, so the quota never interferes. */
export async function raiseQuota(sandbox: SandboxProcess, callsLeft = 10_000_000): Promise<void> {
  await sandbox.inspect(`accounts/${DEMO.account}`, { method: 'PATCH', body: { callsLeft } });
}

/** One edit of an existing site: the same sequence for every client. */
interface Edit {
  siteId: string;
  height: number;
}
type Caller = (edit: Edit) => Promise<void>;

function ourCaller(sandbox: SandboxProcess): Caller {
  const client: ServiceClient = createServiceClient({
    connection: { baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, binding: 'soap11' },
    credentials: () => ({ account: DEMO.account, key: DEMO.key }),
  });
  return async (edit) => {
    const result = await client.saveSite({ siteId: edit.siteId, height: edit.height });
    if (!result.ok) throw new Error(`our client: ${result.error.kind}: ${result.error.detail}`);
  };
}

/**
 * The floor under any client: bare undici on its own keep-alive pool (the options of ours), the same
 * SOAP 1.1 request prebuilt, addressed by origin and path (nothing parsed per call), the answer read
 * whole and only looked at for the site ID. Not a peer — it shows how much of a call is transport.
 */
function bareUndiciCaller(sandbox: SandboxProcess, agent: Agent): Caller {
  const { origin } = new URL(sandbox.url);
  const headers = { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${sandbox.namespace}SitesAPI"` };
  return async (edit) => {
    const body =
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
      `<SitesAPI xmlns="${sandbox.namespace}"><Account>${DEMO.account}</Account><Sitename></Sitename><Siteid>${edit.siteId}</Siteid>` +
      `<height>${edit.height}</height><Latitude></Latitude><Longitude></Longitude><Description></Description><Group></Group>` +
      `<Pinstyle></Pinstyle><key>${DEMO.key}</key></SitesAPI></soap:Body></soap:Envelope>`;
    const response = await agent.request({ origin, path: sandbox.servicePath, method: 'POST', headers, body });
    const text = await response.body.text();
    if (response.statusCode !== 200 || !text.includes(edit.siteId)) throw new Error(`bare undici: ${response.statusCode} ${text.slice(0, 200)}`);
  };
}

type SoapMethod = (args: Record<string, string>, callback: (error: unknown, result: unknown) => void) => void;

async function soapPackageCaller(sandbox: SandboxProcess): Promise<Caller> {
  const client = await createClientAsync(`${sandbox.url}${sandbox.servicePath}?WSDL`);
  // ASMX describes four ports; the SOAP 1.1 one is named <Service>Soap. Call through it explicitly,
  // because the client's top-level methods belong to whichever port it defined last.
  const description = client.describe() as Record<string, Record<string, unknown>>;
  let method: SoapMethod | undefined;
  for (const [service, ports] of Object.entries(description)) {
    const port = Object.keys(ports).find((name) => name.endsWith('Soap'));
    if (port !== undefined) {
      const ports = (client as unknown as Record<string, Record<string, Record<string, SoapMethod>>>)[service];
      method = ports?.[port]?.SitesAPI;
    }
  }
  if (method === undefined) throw new Error(`the WSDL has no SOAP 1.1 port with SitesAPI: ${JSON.stringify(Object.keys(description))}`);
  const sitesApi = method;
  return (edit) =>
    new Promise<void>((resolve, reject) => {
      // Every parameter, in the published order, blanks empty: what our client sends too.
      const args = {
        Account: DEMO.account,
        Sitename: '',
        Siteid: edit.siteId,
        height: String(edit.height),
        Latitude: '',
        Longitude: '',
        Description: '',
        Group: '',
        Pinstyle: '',
        key: DEMO.key,
      };
      sitesApi(args, (error, result) => {
        if (error) return reject(new Error(`soap package: ${error instanceof Error ? error.message : String(error)}`));
        const text = (result as { SitesAPIResult?: unknown } | null)?.SitesAPIResult;
        if (typeof text !== 'string' || !text.includes(edit.siteId)) return reject(new Error(`soap package: unexpected result ${JSON.stringify(result)}`));
        resolve();
      });
    });
}

interface Tally {
  calls: number;
  wallMs: number;
  cpuMs: number;
}

/** Runs `count` calls from `first` with `concurrency` in flight, adding wall and CPU time to the tally. */
async function drive(call: Caller, edits: readonly Edit[], first: number, count: number, concurrency: number, tally: Tally): Promise<void> {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = first + next++;
        await call(edits[index % edits.length] as Edit);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  tally.calls += count;
  tally.wallMs += wallMs;
  tally.cpuMs += (cpu.user + cpu.system) / 1000;
}

export interface PeersOptions {
  /** Measured calls per client and concurrency (default 2,000). */
  calls?: number;
  /** Unmeasured calls per client before each concurrency (default 300). */
  warmup?: number;
  concurrencies?: number[];
  /** How many alternating blocks the measured calls are split into (default 10). */
  rounds?: number;
}

export async function benchPeers(options: PeersOptions = {}): Promise<BenchFigure[]> {
  const calls = options.calls ?? 2000;
  const warmup = options.warmup ?? 300;
  const concurrencies = options.concurrencies ?? [1, 8];
  const rounds = options.rounds ?? 10;
  const block = Math.ceil(calls / rounds);

  const sandbox = await startSandboxProcess();
  const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000, connections: 32 });
  try {
    await raiseQuota(sandbox);
    const siteIds = await sandboxSiteIds(sandbox);
    const edits: Edit[] = Array.from({ length: calls + warmup }, (_, i) => ({ siteId: siteIds[i % siteIds.length] as string, height: 10 + (i % 90) }));
    const clients: { name: 'ours' | 'soap' | 'undici'; call: Caller }[] = [
      { name: 'ours', call: ourCaller(sandbox) },
      { name: 'soap', call: await soapPackageCaller(sandbox) },
      { name: 'undici', call: bareUndiciCaller(sandbox, agent) },
    ];

    const figures: BenchFigure[] = [];
    for (const concurrency of concurrencies) {
      for (const client of clients) await drive(client.call, edits, 0, warmup, concurrency, { calls: 0, wallMs: 0, cpuMs: 0 });
      const tallies = { ours: { calls: 0, wallMs: 0, cpuMs: 0 }, soap: { calls: 0, wallMs: 0, cpuMs: 0 }, undici: { calls: 0, wallMs: 0, cpuMs: 0 } };
      for (let round = 0; round < rounds; round++) {
        // Alternate the order, so no client always runs right after a GC another one left behind.
        const order = round % 2 === 0 ? clients : [...clients].reverse();
        const count = Math.min(block, calls - round * block);
        if (count <= 0) break;
        for (const client of order) await drive(client.call, edits, warmup + round * block, count, concurrency, tallies[client.name]);
      }
      const perSecond = (t: Tally): number => (t.calls * 1000) / t.wallMs;
      const cpuPerCall = (t: Tally): number => t.cpuMs / t.calls;
      const ours = tallies.ours;
      const theirs = tallies.soap;
      const floor = cpuPerCall(tallies.undici);
      figures.push({
        name: `peers: SOAP 1.1 site edits, concurrency ${concurrency}`,
        value: perSecond(ours),
        unit: 'calls/s',
        baseline: perSecond(theirs),
        ratio: perSecond(ours) / perSecond(theirs),
        note: `target ≥ 3× the soap package (${ours.calls.toLocaleString('en-US')} calls each); bare undici ${perSecond(tallies.undici).toFixed(0)} calls/s`,
      });
      figures.push({
        name: `peers: client CPU per call, ours, concurrency ${concurrency}`,
        value: cpuPerCall(ours),
        unit: 'ms/call',
        baseline: floor,
        ratio: cpuPerCall(ours) / floor,
        note: `smaller is better; ratio = ours ÷ bare undici${concurrency === 1 ? ', target ≤ 2×' : ''}; the soap package costs ${(cpuPerCall(theirs) / cpuPerCall(ours)).toFixed(2)}× ours`,
      });
      figures.push({
        name: `peers: client CPU per call, soap package, concurrency ${concurrency}`,
        value: cpuPerCall(theirs),
        unit: 'ms/call',
        baseline: floor,
        ratio: cpuPerCall(theirs) / floor,
        note: 'smaller is better; ratio = the soap package ÷ bare undici',
      });
      figures.push({
        name: `peers: client CPU per call, bare undici floor, concurrency ${concurrency}`,
        value: floor,
        unit: 'ms/call',
        baseline: cpuPerCall(ours),
        ratio: floor / cpuPerCall(ours),
        note: 'the same request prebuilt on undici alone; ratio = floor ÷ ours (the share of our CPU that is transport)',
      });
    }
    return figures;
  } finally {
    await agent.close();
    await sandbox.stop();
  }
}
