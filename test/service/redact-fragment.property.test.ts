// Property (issue 24): a server that quotes only part of the key — as ASP.NET's request validation
// quotes the value it refused — leaves no trace of it. A loopback server echoes a random slice of 8
// or more characters of the key, in a random encoding, inside a random kind of error; no run of 8
// consecutive key characters, in any encoding the client produces, reaches the CallError (through
// the real client, over every binding), the outbox's stored problem and its journal, or the CLI's
// output (`sitewalk call`, `sitewalk site add` + `sitewalk sync`).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../electron/core/service/client';
import { encodeParams } from '../../electron/core/service/plain';
import { BINDINGS } from '../../electron/core/service/types';
import { escapeXmlText } from '../../electron/core/service/xml';
import { isXmlSafe } from '../../electron/shared/validation';
import { sitewalkInTempHome } from '../support/cli';
import { makeTempDir } from '../support/temp';
import { reply, startRawServer, type RawReply, type RawServer } from './helpers/raw-server';

const NS = 'http://tempuri.org/';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const FRAGMENT = 8;

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const wire = (text: string) => encodeParams([['key', text]]).slice(4);
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** How the server writes the slice it quotes. */
const ENCODINGS: Record<string, (text: string) => string> = {
  raw: (text) => text,
  wire,
  'wire, lower-case hex': (text) => lowerHex(wire(text)),
  encodeURIComponent,
  form: (text) => new URLSearchParams({ k: text }).toString().slice(2),
  xml,
  'xml twice': (text) => xml(xml(text)),
  'numeric references': (text) => [...text].map((c) => `&#${c.codePointAt(0)};`).join(''),
  json: (text) => JSON.stringify(text).slice(1, -1),
};

/** Every form a run of the key could take in a text: what must appear nowhere. */
function formsOf(run: string): string[] {
  return [...new Set(Object.values(ENCODINGS).map((encode) => encode(run)).concat(escapeXmlText(run)))];
}

/** Every run of FRAGMENT consecutive characters of the key (the key itself when shorter), in every form. */
function traces(key: string): string[] {
  const points = [...key];
  const width = Math.min(FRAGMENT, points.length);
  const runs = new Set<string>();
  for (let i = 0; i + width <= points.length; i++) runs.add(points.slice(i, i + width).join(''));
  return [...runs].flatMap(formsOf);
}

function leaks(key: string, texts: Array<[string, string]>): string[] {
  const found: string[] = [];
  for (const trace of traces(key)) for (const [where, text] of texts) if (text.includes(trace)) found.push(`${where} holds ${JSON.stringify(trace)}`);
  return found;
}

function textsOf(value: unknown, path = 'error'): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => textsOf(item, `${path}[${index}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([name, inner]) => textsOf(inner, `${path}.${name}`));
  return [];
}

/** What the server quotes next: the key, where the slice starts and ends, how it is written and wrapped. */
interface Echo {
  key: string;
  from: number;
  to: number;
  encoding: string;
  wrap: 'validation' | 'fault' | 'html';
}
let echo: Echo = { key: '', from: 0, to: 0, encoding: 'raw', wrap: 'validation' };

function respond(): RawReply {
  const points = [...echo.key];
  const slice = ENCODINGS[echo.encoding]!(points.slice(echo.from, echo.to).join(''));
  const said = `A potentially dangerous Request.Form value was detected from the client (key="...${slice}..."). QUOTED`;
  if (echo.wrap === 'fault') {
    return reply(500, 'text/xml; charset=utf-8', `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>${xml(said)}</faultstring></soap:Fault></soap:Body></soap:Envelope>`);
  }
  if (echo.wrap === 'html') return reply(500, 'text/html', `<html><title>${xml(said)}</title><body><pre>${xml(said)}</pre></body></html>`);
  return reply(500, 'text/plain; charset=utf-8', `System.Web.HttpRequestValidationException: ${said}`);
}

let server: RawServer;
beforeAll(async () => {
  server = await startRawServer(respond);
});
afterAll(async () => {
  await server?.close();
});

// Keys of 8 to 43 characters with the characters encoders treat specially (the report's key held "&#33;").
const special = fc.constantFrom('!', "'", '(', ')', '*', '&', '<', '>', '"', '+', ' ', '%', ';', '#', '=', '/', '\\', 'é', '北', '🗼', '&#33;', '%2A');
const keyChar = fc.oneof(special, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }));
const apiKey = fc
  .array(keyChar, { minLength: 8, maxLength: 43 })
  .map((parts) => parts.join(''))
  .filter((key) => isXmlSafe(key) && key.trim() === key && [...key].length >= FRAGMENT);
const echoOf = (key: string) =>
  fc.record({
    from: fc.nat([...key].length - FRAGMENT),
    extra: fc.nat(40),
    encoding: fc.constantFrom(...Object.keys(ENCODINGS)),
    wrap: fc.constantFrom('validation' as const, 'fault' as const, 'html' as const),
  }).map(({ from, extra, encoding, wrap }): Echo => ({ key, from, to: Math.min([...key].length, from + FRAGMENT + extra), encoding, wrap }));

describe('a slice of the key quoted by the server', () => {
  it('reaches no field of the error over any binding, in any encoding', async () => {
    await fc.assert(
      fc.asyncProperty(apiKey.chain((key) => echoOf(key)), async (next) => {
        echo = next;
        for (const binding of BINDINGS) {
          const client = createServiceClient({
            connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: NS, binding },
            credentials: () => ({ account: '10001', key: next.key }),
            timeoutMs: 15_000,
          });
          const result = await client.callRaw('SitesAPI', { Sitename: 'Hill', height: '20' });
          if (result.ok) throw new Error(`${binding}: expected a failure`);
          const texts = textsOf(result.error);
          expect(texts.some(([, text]) => text.includes('QUOTED')), JSON.stringify(result.error)).toBe(true);
          expect(leaks(next.key, texts), `${binding} ${JSON.stringify(next)}`).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('through the outbox and the CLI', () => {
  const sitewalk = sitewalkInTempHome();

  it('leaves no run of the key in the output of call, site add and sync, nor in the data folder', async () => {
    await fc.assert(
      fc.asyncProperty(apiKey.chain((key) => echoOf(key)), async (next) => {
        echo = next;
        const dir = await makeTempDir('sitewalk-fragment-');
        try {
          const env = { SITEWALK_KEY: next.key };
          const outputs: Array<[string, string]> = [];
          const connection = ['--base-url', server.url, '--account', '10001', '--binding', 'http-post'];
          const call = await sitewalk(['call', 'SitesAPI', ...connection, '--param', 'Sitename=Hill', '--param', 'height=20'], { env });
          outputs.push(['call stdout', call.stdout], ['call stderr', call.stderr]);
          expect(call.stdout + call.stderr).toContain('QUOTED');
          const added = await sitewalk(['profile', 'add', 'Field', ...connection, '--data-dir', dir.path]);
          expect(added.code, added.stderr).toBe(0);
          await sitewalk(['profile', 'use', 'Field', '--data-dir', dir.path]);
          const site = await sitewalk(['site', 'add', '--name', 'Hill', '--height=20', '--lat=45', '--lon=-93', '--data-dir', dir.path], { env });
          outputs.push(['site add stdout', site.stdout], ['site add stderr', site.stderr]);
          const sync = await sitewalk(['sync', '--json', '--data-dir', dir.path], { env });
          outputs.push(['sync stdout', sync.stdout], ['sync stderr', sync.stderr]);
          const outbox = await sitewalk(['outbox', '--json', '--data-dir', dir.path], { env });
          outputs.push(['outbox stdout', outbox.stdout]);
          expect(outputs.some(([, text]) => text.includes('QUOTED')), JSON.stringify(outputs)).toBe(true);
          for (const name of await readdir(dir.path, { recursive: true })) {
            const bytes = await readFile(join(dir.path, name)).catch(() => null);
            if (bytes) outputs.push([`data folder ${name}`, bytes.toString('utf8')]);
          }
          expect(leaks(next.key, outputs), JSON.stringify(next)).toEqual([]);
        } finally {
          await dir.remove();
        }
      }),
      { numRuns: 6 },
    );
  }, 300_000);
});
