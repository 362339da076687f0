// `sitewalk call` as a user runs it: a real process (node electron/cli/sitewalk.mjs) against the
// sandbox, on every binding, success and failure, the JSON on stdout checked and the exit code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../electron/sandbox/index';
import { BINDINGS } from '../../electron/core/service/types';
import { startTestSandbox } from '../service/helpers/sandbox';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHIM = fileURLToPath(new URL('../../electron/cli/sitewalk.mjs', import.meta.url));

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed document, checked field by field
  json: any;
}

/** Runs the CLI with the sandbox's connection flags; the key goes through SITEWALK_KEY. */
function sitewalk(args: string[], key = sandbox.demo.key): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SHIM, ...args], {
      cwd: ROOT,
      env: { ...process.env, SITEWALK_KEY: key, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // Never leave a process behind, whatever happens to the test.
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(guard);
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = null;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

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
