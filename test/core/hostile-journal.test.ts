// A hostile server or proxy that answers every call with a huge error body (an 8 MB text/plain
// 500, or a SOAP fault with an 8 MB detail) cannot grow the database: each failure keeps a
// few KB of the text, once, through retries and reopens. A real loopback server, real files.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore } from '../../electron/core/open-core';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { createSessionSecretStore } from '../../electron/core/profiles/session';

const HUGE = 8 * 1024 * 1024;
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  const body = Buffer.alloc(HUGE, 'x');
  server = createServer((request, response) => {
    if (request.url?.endsWith('?WSDL')) {
      response.writeHead(200, { 'content-type': 'text/xml' }).end('<definitions/>');
      return;
    }
    request.resume();
    if (request.headers['soapaction']) {
      response.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' });
      response.end(
        `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request. ---&gt; Boom.</faultstring><detail>${body.toString()}</detail></soap:Fault></soap:Body></soap:Envelope>`,
      );
      return;
    }
    response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('a server that answers with huge error bodies', () => {
  it.each(['http-post', 'soap11'] as const)('keeps the database small over %s, through retries and a reopen', async (binding) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-hostile-'));
    try {
      const options = { dataDir, secretStore: createSessionSecretStore(), autoSync: false, sandbox: false as const, retry: { baseMs: 1, capMs: 5, maxAttempts: 12 }, probe: { baseMs: 1, capMs: 5 } };
      const core = await openCore(options);
      const profile = await core.profiles.add({ name: 'Hostile', baseUrl, account: '42', binding });
      if (!profile.ok) throw new Error('no profile');
      await core.profiles.setKey(profile.value.id, 'k3y-that-is-long-enough', { sessionOnly: true });
      await core.profiles.use(profile.value.id);
      for (let i = 0; i < 20; i++) expect((await core.sites.save({ siteId: String(1000 + i), height: 30 + i })).ok).toBe(true);
      core.sync.start();
      const settled = await core.sync.untilSettled();
      expect(settled.counts.pending + settled.counts.sending).toBe(0);
      const entries = core.outbox.list();
      expect(entries.every((entry) => entry.state === 'failed')).toBe(true);
      for (const entry of entries) expect(JSON.stringify(entry.problem).length).toBeLessThan(16 * 1024);
      await core.close();

      const size = (await stat(join(dataDir, DATABASE_FILE))).size;
      // 20 entries, every attempt recorded: a few KB each, far from 20 × 8 MB.
      expect(size).toBeLessThan(2 * 1024 * 1024);
      const again = await openCore(options);
      expect(again.outbox.list({ allProfiles: true })).toHaveLength(20);
      await again.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
