// `sitewalk call` as a user runs it (the CLI's main() in this process, test/support/cli.ts) against
// the sandbox, on every binding, success and failure, the JSON on stdout checked and the exit code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../electron/sandbox/index';
import { BINDINGS } from '../../electron/core/service/types';
import { startTestSandbox } from '../service/helpers/sandbox';
import { sitewalkInTempHome } from '../support/cli';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

const run = sitewalkInTempHome();
/** Runs the CLI with the sandbox's connection flags; the key goes through SITEWALK_KEY. */
const sitewalk = (args: string[], key = sandbox.demo.key) => run(args, { env: { SITEWALK_KEY: key } });

const connection = (binding: string) => ['--base-url', sandbox.url, '--service-path', sandbox.servicePath, '--namespace', sandbox.namespace, '--binding', binding, '--account', sandbox.demo.account];

describe.each(BINDINGS)('sitewalk call over %s', (binding) => {
  it('creates a site, prints its ID as JSON and exits 0', async () => {
    const run = await sitewalk(['call', 'SitesAPI', ...connection(binding), '--param', 'Sitename=CLI & "Ridge" +1', '--param', 'height=33', '--param', 'Latitude=44.9', '--param', 'Longitude=-93.1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ ok: true, operation: 'SitesAPI', binding, result: { siteId: expect.stringMatching(/^\d+$/) } });
    expect(run.json.result.text).toBe(run.json.result.siteId);
    const site = sandbox.snapshot().sites.find((entry) => entry.id === run.json.result.siteId);
    expect(site).toMatchObject({ name: 'CLI & "Ridge" +1', height: 33 });
  }, 120_000);

  it('prints the rendering quality list', async () => {
    const run = await sitewalk(['call', 'GetRenderingQualityList', ...connection(binding)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.result.qualities.map((quality: { id: number }) => quality.id)).toEqual(sandbox.snapshot().renderingQualities.map((quality) => quality.id));
  }, 120_000);

  it('passes a raw value on and prints the service\'s refusal with exit 1', async () => {
    const submission = sandbox.snapshot().submissions[0]!;
    const run = await sitewalk(['call', 'EusReprocessAPI', ...connection(binding), '--param', `processid=${submission.processId}`, '--param', 'multicoverageid=12ab', '--param', 'emailsend=1']);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ ok: false, operation: 'EusReprocessAPI', error: { kind: 'fault', retryable: false, mayHaveBeenApplied: false } });
    expect(run.stderr).toMatch(/^sitewalk call: The service refused the request/);
  }, 120_000);

  it('reports a rejected key with exit 1 and never prints it', async () => {
    const run = await sitewalk(['call', 'GetRenderingQualityList', ...connection(binding)], 'wrong-key-4711');
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ kind: 'fault', authRejected: true });
    expect(run.stdout + run.stderr).not.toContain('wrong-key-4711');
  }, 120_000);
});

describe('sitewalk call usage', () => {
  it('exits 2 with a JSON usage error for an unknown parameter, before any call', async () => {
    const callsBefore = sandbox.snapshot().calls.length;
    const run = await sitewalk(['call', 'SitesAPI', ...connection('http-post'), '--param', 'Height=30']);
    expect(run.code).toBe(2);
    expect(run.json.error).toMatchObject({ kind: 'invalid-input' });
    expect(run.json.error.message).toContain('did you mean "height"?');
    expect(sandbox.snapshot().calls.length).toBe(callsBefore);
  }, 120_000);

  it('reports a service that is not there with exit 1 and sent "no"', async () => {
    const gone = await startTestSandbox();
    const url = gone.url;
    await gone.close();
    const run = await sitewalk(['call', 'GetRenderingQualityList', '--base-url', url, '--account', '1']);
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ kind: 'network', sent: 'no', mayHaveBeenApplied: false });
  }, 120_000);
});
