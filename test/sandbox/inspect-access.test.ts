// Who may use /_sandbox/ (which can reset, load and fault the sandbox): tools on this machine and
// the user's own browser tab, never a web page. A page elsewhere — a sandboxed iframe (Origin:
// null), a cross-site fetch, a form or image without an Origin — is refused with 403 and changes
// nothing. Requests are built by hand with the headers a browser would send.
import { describe, expect, it } from 'vitest';
import { durableState, inspect, demoSandboxForFile } from './raw';

const sandbox = demoSandboxForFile();

const self = (): string => new URL(sandbox.url).host;

/** A reset that would empty the sandbox, sent with these headers: refused, and the sites are all still there. */
async function expectResetRefused(headers: Record<string, string>, reason: RegExp): Promise<void> {
  const before = durableState(sandbox);
  const refused = await inspect<{ error: string }>(sandbox, 'reset', { method: 'POST', body: { seed: 'empty' }, headers });
  expect(refused.status).toBe(403);
  expect(refused.json.error).toMatch(reason);
  expect(durableState(sandbox)).toEqual(before);
}

describe('/_sandbox/ refuses what a web page can send', () => {
  it('refuses a request addressed to another host name, or sent from a page of another origin', async () => {
    const port = new URL(sandbox.url).port;
    const foreignHost = await inspect<{ error: string }>(sandbox, 'state', { headers: { Host: `sandbox.example.com:${port}` } });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.json.error).toContain('loopback host');
    const foreignOrigin = await inspect<{ error: string }>(sandbox, 'faults', { method: 'PUT', body: { hangRate: 1 }, headers: { Origin: 'http://evil.example' } });
    expect(foreignOrigin.status).toBe(403);
    expect((await inspect(sandbox, 'faults')).json).toEqual({});
    expect((await inspect(sandbox, 'state', { headers: { Host: `localhost:${port}` } })).status).toBe(200);
  });

  it('refuses Origin: null, what a sandboxed iframe or a file:// page sends', async () => {
    await expectResetRefused({ Origin: 'null' }, /Origin: null/);
    const faults = await inspect<{ error: string }>(sandbox, 'faults', { method: 'PUT', body: { hangRate: 1 }, headers: { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' } });
    expect(faults.status).toBe(403);
    expect((await inspect(sandbox, 'faults')).json).toEqual({});
  });

  it.each(['cross-site', 'same-site'])('refuses Sec-Fetch-Site: %s, with or without an Origin', async (site) => {
    await expectResetRefused({ 'Sec-Fetch-Site': site }, new RegExp(`Sec-Fetch-Site: ${site}`));
    await expectResetRefused({ 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': 'no-cors', Origin: `http://${self()}` }, new RegExp(`Sec-Fetch-Site: ${site}`));
    // A read is refused too: an <img> or a top-level navigation from another site sends no Origin.
    expect((await inspect(sandbox, 'state', { headers: { 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': 'navigate' } })).status).toBe(403);
  });

  it('refuses a request without an Origin whose Referer is another site, from a browser without Sec-Fetch-Site', async () => {
    await expectResetRefused({ Referer: 'http://evil.example/page.html' }, /other origins/);
  });
});

describe('/_sandbox/ answers its own page, the user and tools', () => {
  it('answers a same-origin request from a page the sandbox served', async () => {
    const headers = { Origin: `http://${self()}`, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', Referer: `http://${self()}/_sandbox/` };
    const reset = await inspect<{ reset: boolean }>(sandbox, 'reset', { method: 'POST', body: { seed: 'empty' }, headers });
    expect(reset).toEqual({ status: 200, json: { reset: true, seed: 'empty' } });
    expect(sandbox.snapshot().sites).toEqual([]);
  });

  it('answers Sec-Fetch-Site: none, a URL the user typed or a bookmark', async () => {
    expect((await inspect(sandbox, 'state', { headers: { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' } })).status).toBe(200);
  });

  it('answers a tool that sends none of these headers (curl, tests, the CLI)', async () => {
    expect((await inspect(sandbox, 'calls')).status).toBe(200);
    expect((await inspect(sandbox, 'faults', { method: 'PUT', body: { latencyMs: 1 } })).json).toEqual({ latencyMs: 1 });
  });
});
