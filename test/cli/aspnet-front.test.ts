// The CLI against a service that behaves like ASP.NET (the sandbox, over real HTTP): `sitewalk call`
// stays raw — the binding asked — and reports a request-validation or query-length refusal as not
// retryable, naming the binding that would carry it; `sitewalk profile test` checks the service, the
// account and key with one API call and the bindings; the binding-fallback switch is set with
// `profile add` / `profile edit`; the outbox listing says which binding carried an entry.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../electron/sandbox/index';
import { BINDINGS } from '../../electron/core/service/types';
import { sitewalkInTempHome } from '../support/cli';
import { makeTempDir, type TempDir } from '../support/temp';
import { sandboxPerFile, startTestSandbox } from '../service/helpers/sandbox';

const LONG_DESCRIPTION = 'Access road — gate 4, north side; '.repeat(60).slice(0, 1990);

let sandbox: RunningSandbox;
sandboxPerFile((started) => (sandbox = started));
const dirs: TempDir[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await dir.remove();
});

const run = sitewalkInTempHome();
const sitewalk = (args: string[], env: Record<string, string> = {}) => run(args, { env });

const KEY = { SITEWALK_KEY: 'sandbox-demo-key' };
const connection = (binding: string) => ['--base-url', sandbox.url, '--service-path', sandbox.servicePath, '--namespace', sandbox.namespace, '--binding', binding, '--account', sandbox.demo.account];
const callsLeft = () => sandbox.snapshot().accounts.find((account) => account.id === sandbox.demo.account)!.callsLeft;

async function dataDir(): Promise<string> {
  const dir = await makeTempDir('sitewalk-cli-aspnet-');
  dirs.push(dir);
  return dir.path;
}

/** A data folder whose active profile "Field" is on the sandbox over `binding`. */
async function fieldProfile(binding: string, extra: string[] = []): Promise<string> {
  const dir = await dataDir();
  const added = await sitewalk(['profile', 'add', 'Field', '--base-url', sandbox.url, '--account', sandbox.demo.account, '--binding', binding, ...extra, '--data-dir', dir]);
  expect(added.code, added.stderr).toBe(0);
  const used = await sitewalk(['profile', 'use', 'Field', '--data-dir', dir]);
  expect(used.code, used.stderr).toBe(0);
  return dir;
}

describe.each(BINDINGS)('sitewalk call over %s, with text ASP.NET refuses on HTTP GET/POST', (binding) => {
  const form = binding === 'http-get' || binding === 'http-post';

  it(form ? 'sends it as asked and reports the refusal as not retryable, naming SOAP 1.1' : 'creates the site: SOAP bodies are not checked', async () => {
    const run = await sitewalk(['call', 'SitesAPI', ...connection(binding), '--param', 'Sitename=Ridge <North> tower', '--param', 'height=30', '--param', 'Latitude=45', '--param', 'Longitude=-93'], KEY);
    const carriers = sandbox.snapshot().calls.filter((call) => call.operation === 'SitesAPI').map((call) => call.binding);
    expect(carriers).toEqual([binding]);
    if (!form) {
      expect(run.code, run.stderr).toBe(0);
      return;
    }
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ ok: false, binding, error: { kind: 'fault', retryable: false, mayHaveBeenApplied: false, refusedBy: { rule: 'request-validation', parameter: 'Sitename', carrier: 'soap11' } } });
    expect(run.stderr).toMatch(/request validation refused Sitename over .*not retryable.*--binding soap11 would carry it/);
    expect(sandbox.snapshot().sites.some((site) => site.name === 'Ridge <North> tower')).toBe(false);
  }, 120_000);
});

describe('sitewalk call with a query over 2,048 characters', () => {
  it('reports it on HTTP GET as not retryable, naming HTTP POST', async () => {
    const run = await sitewalk(['call', 'SitesAPI', ...connection('http-get'), '--param', 'Sitename=Long', '--param', `Description=${LONG_DESCRIPTION}`, '--param', 'height=30', '--param', 'Latitude=45', '--param', 'Longitude=-93'], KEY);
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ kind: 'http', status: 400, retryable: false, refusedBy: { rule: 'query-length', carrier: 'http-post' } });
    expect(run.stderr).toMatch(/--binding http-post would carry it/);
  }, 120_000);
});

describe('sitewalk profile test', () => {
  it('checks the service, the account and key with one API call, and which bindings answer', async () => {
    const dir = await fieldProfile('http-post');
    const before = callsLeft();
    const run = await sitewalk(['profile', 'test', '--json', '--data-dir', dir], KEY);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ ok: true, test: { ok: true, apiCallsUsed: 1, reachability: { outcome: 'passed' }, credentials: { outcome: 'passed' } } });
    expect(run.json.test.credentials.message).toMatch(/one API call/);
    expect(run.json.test.bindings).toEqual(BINDINGS.map((binding) => expect.objectContaining({ binding, inWsdl: true, answers: true, how: binding === 'http-post' ? 'call' : 'refusal' })));
    expect(callsLeft()).toBe(before - 1);
  }, 120_000);

  it('makes the real call over every binding only when asked, and says what it used', async () => {
    const dir = await fieldProfile('soap12');
    const before = callsLeft();
    const run = await sitewalk(['profile', 'test', 'Field', '--every-binding', '--data-dir', dir], KEY);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/API calls used: 4/);
    expect(callsLeft()).toBe(before - 4);
  }, 120_000);

  it('fails with exit 1 on a refused key, and spends nothing on a service that is not there', async () => {
    const dir = await fieldProfile('http-get');
    const refused = await sitewalk(['profile', 'test', '--json', '--data-dir', dir], { SITEWALK_KEY: 'wrong-key-4711' });
    expect(refused.code).toBe(1);
    expect(refused.json.test).toMatchObject({ ok: false, reachability: { outcome: 'passed' }, credentials: { outcome: 'failed' } });
    expect(refused.stdout + refused.stderr).not.toContain('wrong-key-4711');

    const gone = await startTestSandbox();
    await gone.close();
    const away = await sitewalk(['profile', 'edit', 'Field', '--base-url', gone.url, '--data-dir', dir]);
    expect(away.code, away.stderr).toBe(0);
    const unreachable = await sitewalk(['profile', 'test', '--json', '--data-dir', dir], KEY);
    expect(unreachable.code).toBe(1);
    expect(unreachable.json.test).toMatchObject({ ok: false, apiCallsUsed: 0, reachability: { outcome: 'failed' }, credentials: { outcome: 'skipped' } });
  }, 120_000);
});

describe('binding fallback from the CLI', () => {
  it('is set with profile add and profile edit, and a carried entry says so in the outbox', async () => {
    const dir = await fieldProfile('http-post', ['--no-binding-fallback']);
    const listed = await sitewalk(['profile', 'list', '--json', '--data-dir', dir]);
    expect(listed.json.profiles.find((profile: { name: string }) => profile.name === 'Field')).toMatchObject({ bindingFallback: false });
    const on = await sitewalk(['profile', 'edit', 'Field', '--binding-fallback', 'on', '--json', '--data-dir', dir]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.json.profile).toMatchObject({ bindingFallback: true, binding: 'http-post' });

    const added = await sitewalk(['site', 'add', '--name', 'Ridge <North> tower', '--height=30', '--lat=45', '--lon=-93', '--data-dir', dir]);
    expect(added.code, added.stderr).toBe(0);
    const synced = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir], KEY);
    expect(synced.code, synced.stderr).toBe(0);
    const outbox = await sitewalk(['outbox', '--all', '--data-dir', dir]);
    expect(outbox.stdout).toMatch(/via SOAP 1\.1/);
    expect(outbox.stdout).toMatch(/Sent over SOAP 1\.1 instead of HTTP POST/);
    expect(sandbox.snapshot().sites.filter((site) => site.name === 'Ridge <North> tower')).toHaveLength(1);
  }, 120_000);
});
