// The renderer will run parsing, mapping, validation and export in a Web Worker. This bundles the
// browser-safe entry for the browser (a `node:` import fails the build) and runs it in a bare
// JavaScript context that has only what a Worker has, with no Node globals (no require, process,
// Buffer).
import { build } from 'esbuild';
import JSZip from 'jszip';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from './helpers';

let context: vm.Context;

beforeAll(async () => {
  const result = await build({
    entryPoints: ['electron/shared/bulk/index.ts'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'bulk',
    write: false,
    logLevel: 'silent',
  });
  context = vm.createContext({ TextDecoder, TextEncoder, setTimeout, clearTimeout, queueMicrotask, console, structuredClone });
  // A Worker's global object is `self`.
  vm.runInContext('globalThis.self = globalThis;', context);
  vm.runInContext(result.outputFiles[0]!.text, context);
}, 60_000);

/** Runs `body` inside the worker-like context with `input` (plain data) and returns plain data. */
async function inWorker(body: string, input: unknown): Promise<unknown> {
  const run = vm.runInContext(`(async (input) => { ${body} })`, context) as (input: unknown) => Promise<unknown>;
  return structuredClone(await run(structuredClone(input)));
}

describe('bulk parsing in a Web Worker', () => {
  it('has no Node globals in the test context (so the checks below mean something)', () => {
    expect(vm.runInContext('typeof require + typeof process + typeof Buffer', context)).toBe('undefinedundefinedundefined');
  });

  it('previews a Windows-1252 CSV from bytes to plain data', async () => {
    const preview = (await inWorker(
      'return bulk.previewImport(new Uint8Array(input.bytes), { fileName: "a.csv" });',
      { bytes: Array.from(fixture('windows-1252.csv')) },
    )) as { summary: { ready: number }; rows: Array<{ edit: { name: string } }> };
    expect(preview.summary.ready).toBe(2);
    expect(preview.rows[0]?.edit.name).toBe('Caf\u00e9 Ridge');
  });

  it('opens a KMZ and exports CSV, KML and GeoJSON', async () => {
    const zip = new JSZip();
    zip.file('doc.kml', fixture('towers.kml'));
    const kmz = await zip.generateAsync({ type: 'uint8array' });
    const result = (await inWorker(
      `const preview = await bulk.previewImport(new Uint8Array(input.bytes), { fileName: 'a.kmz' });
       const sites = preview.rows.filter((row) => row.ready).map((row) => ({ siteId: row.edit.siteId ?? null, ...row.edit }));
       return { ready: preview.summary.ready, csv: bulk.exportCsv(sites).text, kml: bulk.exportKml(sites).count, geojson: JSON.parse(bulk.exportGeoJson(sites).text).features.length };`,
      { bytes: Array.from(kmz) },
    )) as { ready: number; csv: string; kml: number; geojson: number };
    expect(result.ready).toBe(2);
    expect(result.csv.split('\r\n')[0]).toBe('Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle');
    expect(result.kml).toBe(2);
    expect(result.geojson).toBe(2);
  });

  it('plans an EUS reprocess', async () => {
    const plan = (await inWorker(
      'return bulk.planReprocess(bulk.readEusCsv(new Uint8Array(input.bytes)), { multiMapId: "301", sendEmail: false });',
      { bytes: Array.from(fixture('eus-download.csv')) },
    )) as { summary: { ready: number } };
    expect(plan.summary.ready).toBe(3);
  });
});
