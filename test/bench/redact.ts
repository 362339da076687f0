// What removing the key costs a call with a large answer (issue 24): the client redacts only what is
// kept or shown (each parsed value, every field of an error), where it used to run the fragment
// redactor over the whole decoded body first. Each figure is the median of a few calls against a
// loopback server; the baseline, measured in the same run on the same body, is that call plus the
// whole-body pass the client made before.
import { createServiceClient } from '../../electron/core/service/client';
import { createRedactor } from '../../electron/core/service/redact';
import { reply, startRawServer } from '../service/helpers/raw-server';
import type { BenchFigure } from './figures';

const KEY = 'bench-key-0123456789abcdef-XYZ';
const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** A rendering list of `count` entries with long names: about 4.5 MB at 10,000. */
function renderingList(count: number): string {
  const entries = Array.from({ length: count }, (_, index) => `<Rendering><RenderingQualityid>${index + 1}</RenderingQualityid><RenderingQualityname>Quality ${index + 1} ${'survey grade, foliage and terrain '.repeat(12)}</RenderingQualityname></Rendering>`);
  return `<?xml version="1.0" encoding="utf-8"?><ArrayOfRendering xmlns="http://tempuri.org/">${entries.join('')}</ArrayOfRendering>`;
}

/** A 2xx web page of `bytes` (a captive portal answering for the service): the call fails with an excerpt. */
function portalPage(bytes: number): string {
  const paragraph = '<p>Welcome to the guest network. Accept the terms of use to continue browsing.</p>\n';
  return `<!doctype html><html><head><title>Guest Wi-Fi</title></head><body>${paragraph.repeat(Math.ceil(bytes / paragraph.length))}</body></html>`;
}

export async function benchRedact(): Promise<BenchFigure[]> {
  const cases: Array<{ name: string; body: string; contentType: string; expectOk: boolean }> = [
    { name: 'rendering list of 10,000 (HTTP POST)', body: renderingList(10_000), contentType: 'text/xml; charset=utf-8', expectOk: true },
    { name: '2xx web page of 7.5 MB (a protocol error)', body: portalPage(7.5 * 1024 * 1024), contentType: 'text/html; charset=utf-8', expectOk: false },
  ];
  const redactor = createRedactor([KEY]);
  const figures: BenchFigure[] = [];
  for (const { name, body, contentType, expectOk } of cases) {
    const server = await startRawServer(() => reply(200, contentType, body));
    try {
      const client = createServiceClient({
        connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', binding: 'http-post' },
        credentials: () => ({ account: '10001', key: KEY }),
      });
      const calls: number[] = [];
      const passes: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        const started = performance.now();
        const result = await client.listRenderingQualities({});
        const ms = performance.now() - started;
        if (result.ok !== expectOk) throw new Error(`${name}: the call ${result.ok ? 'succeeded' : `failed (${result.error.kind}: ${result.error.detail.split('\n').slice(2, 3).join(' ')})`}, which this case does not expect`);
        const passStarted = performance.now();
        redactor(body);
        const passMs = performance.now() - passStarted;
        // The first call warms the connection and the JIT.
        if (run === 0) continue;
        calls.push(ms);
        passes.push(passMs);
      }
      const value = median(calls);
      const baseline = value + median(passes);
      figures.push({
        name: `call with a ${name}`,
        value: round(value),
        unit: 'ms',
        baseline: round(baseline),
        ratio: Math.round((baseline / value) * 100) / 100,
        note: `${Math.round(body.length / 1024)} KiB body; baseline = the same call plus the whole-body redaction pass it made before (smaller is better)`,
      });
    } finally {
      await server.close();
    }
  }
  return figures;
}
