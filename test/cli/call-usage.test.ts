// `sitewalk call` run in-process: usage errors (exit 2, a sentence on stderr, one JSON document on
// stdout, nothing sent), the key never echoed, and the JSON shape of results and failures against a
// loopback server that records what arrived.
import { beforeEach, describe, expect, it } from 'vitest';
import { reply, rawServerPerFile, type RawReply, type RawServer } from '../service/helpers/raw-server';
import { sitewalkInTempHome } from '../support/cli';

let server: RawServer;
let next: RawReply;
rawServerPerFile(
  () => next,
  (started) => (server = started),
);
beforeEach(() => {
  server.requests.length = 0;
});

const sitewalk = sitewalkInTempHome();
const run = (argv: string[], env: Record<string, string> = { SITEWALK_KEY: 'cli-secret-key' }) => sitewalk(argv, { env });

const base = () => ['--base-url', server.url, '--account', '10001'];

describe('usage errors', () => {
  it('rejects a wrongly cased parameter name, listing the valid ones, and sends nothing', async () => {
    const { code, json, stderr } = await run(['call', 'SitesAPI', ...base(), '--param', 'siteid=12']);
    expect(code).toBe(2);
    expect(json).toMatchObject({ ok: false, operation: 'SitesAPI', error: { kind: 'invalid-input', mayHaveBeenApplied: false } });
    expect(json?.error.issues[0].message).toContain('did you mean "Siteid"?');
    expect(json?.error.issues[0].message).toContain('Sitename, Siteid, height, Latitude, Longitude, Description, Group, Pinstyle');
    expect(stderr).toContain('did you mean "Siteid"?');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses Account and key as --param, and a parameter given twice', async () => {
    const { code, json } = await run(['call', 'EusReprocessAPI', ...base(), '--param', 'key=x', '--param', 'emailsend=1', '--param', 'emailsend=0']);
    expect(code).toBe(2);
    expect(json?.error.issues.map((issue: { field: string }) => issue.field)).toEqual(['key', 'emailsend']);
  });

  it('asks for a key when neither --key nor SITEWALK_KEY is given', async () => {
    const { code, json } = await run(['call', 'GetRenderingQualityList', ...base()], {});
    expect(code).toBe(2);
    expect(json?.error.issues).toEqual([{ field: 'key', message: 'No API key: set SITEWALK_KEY or give --key.' }]);
  });

  it('takes an empty SITEWALK_KEY as no key: says so and sends nothing, and --key still gives one', async () => {
    for (const empty of ['', '   ']) {
      const { code, json, stderr } = await run(['call', 'GetRenderingQualityList', ...base()], { SITEWALK_KEY: empty });
      expect(code).toBe(2);
      expect(json?.error.issues).toEqual([{ field: 'key', message: "No API key: SITEWALK_KEY is set but empty; set it to the account's key or give --key." }]);
      expect(stderr).toContain('SITEWALK_KEY is set but empty');
    }
    expect(server.requests).toHaveLength(0);
    next = reply(200, 'text/xml; charset=utf-8', '<?xml version="1.0" encoding="utf-8"?><ArrayOfRendering xmlns="http://tempuri.org/" />');
    const given = await run(['call', 'GetRenderingQualityList', ...base(), '--binding', 'http-get', '--key', 'flag-key-1'], { SITEWALK_KEY: '' });
    expect(given.code, given.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toContain('key=flag-key-1');
  });

  it('reports a missing required option and an unknown operation as usage errors', async () => {
    const missing = await run(['call', 'SitesAPI', '--account', '1']);
    expect(missing.code).toBe(2);
    expect(missing.json?.error.issues[0]).toMatchObject({ field: 'base-url' });
    const unknown = await run(['call', 'DeleteEverything', ...base()]);
    expect(unknown.code).toBe(2);
    expect(unknown.json?.error.message).toMatch(/DeleteEverything.*invalid/i);
  });

  it('rejects an unknown binding and a silly timeout', async () => {
    expect((await run(['call', 'SitesAPI', ...base(), '--binding', 'soap13'])).code).toBe(2);
    const timeout = await run(['call', 'SitesAPI', ...base(), '--timeout', '5s']);
    expect(timeout.code).toBe(2);
    expect(timeout.json?.error.issues[0].field).toBe('timeout');
  });

  it('refuses a value with a character XML cannot carry, without sending', async () => {
    const { code, json } = await run(['call', 'SitesAPI', ...base(), '--param', 'Sitename=bell\u0007']);
    expect(code).toBe(2);
    expect(json?.error.issues[0]).toMatchObject({ field: 'Sitename' });
    expect(server.requests).toHaveLength(0);
  });

  it('prints help with the parameters of each operation and exits 0', async () => {
    const { code, stdout } = await run(['call', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('EusReprocessAPI: processid, multicoverageid, emailsend');
  });

  it('prints the command list and a usage error when no command is given', async () => {
    const { code, stderr, stdout } = await run([]);
    expect(code).toBe(2);
    expect(stderr).toContain('call [options] <operation>');
    // No command, so not `call`'s JSON either: stdout is left empty without --json (usage-errors.test.ts).
    expect(stdout).toBe('');
  });
});

describe('outcomes', () => {
  it('prints the created site ID and sends the values as given', async () => {
    next = reply(200, 'text/xml; charset=utf-8', '<?xml version="1.0"?><string xmlns="http://tempuri.org/">100026</string>');
    const { code, json, stderr } = await run(['call', 'SitesAPI', ...base(), '--param', 'height=30.5', '--param', 'Sitename=A=B & C']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(json).toEqual({ ok: true, operation: 'SitesAPI', binding: 'http-post', result: { text: '100026', siteId: '100026' } });
    const form = new URLSearchParams(server.requests[0]!.body.toString());
    expect(form.get('height')).toBe('30.5');
    expect(form.get('Sitename')).toBe('A=B & C');
    expect(form.get('key')).toBe('cli-secret-key');
  });

  it('prints the list of rendering qualities', async () => {
    next = reply(200, 'text/xml', '<ArrayOfRendering xmlns="http://tempuri.org/"><Rendering><RenderingQualityid>2</RenderingQualityid><RenderingQualityname>Std</RenderingQualityname></Rendering></ArrayOfRendering>');
    const { code, json } = await run(['call', 'GetRenderingQualityList', ...base(), '--binding', 'http-get']);
    expect(code).toBe(0);
    expect(json?.result).toEqual({ qualities: [{ id: 2, name: 'Std', error: null }] });
  });

  it('exits 1 with the whole error and never prints the key, even when the service echoes it', async () => {
    next = reply(500, 'text/plain; charset=utf-8', 'System.ArgumentException: Invalid account ID or API key cli-secret-key.\r\n   at X.Y()');
    const { code, json, stdout, stderr } = await run(['call', 'GetRenderingQualityList', ...base(), '--key', 'cli-secret-key'], {});
    expect(code).toBe(1);
    expect(json?.error).toMatchObject({ kind: 'fault', source: 'http-text', authRejected: true, retryable: false, mayHaveBeenApplied: false });
    expect(stdout + stderr).not.toContain('cli-secret-key');
    expect(stderr).toMatch(/^sitewalk call: The service rejected the account ID or API key/);
  });
});
