// The `sitewalk` executable itself, started as a user's shell starts it (electron/cli/sitewalk.mjs
// through its shebang): what only a real process shows — that the file runs at all, its exit status
// for success, a usage error and a failed call, and that it ends once the answer is printed even
// with a keep-alive connection to the service still open, and that Ctrl-C and SIGTERM end it with
// 130 and 143 (never by the signal's default, which a library's own handler had raced); and that it
// builds a bundle of itself on its first run, starts from it after, builds it again when a file it was
// made from changed, and runs from source where it cannot build one. Every other CLI test calls main()
// in process; Ctrl-C on a bulk run is in test/bulk/cli-sandbox.test.ts.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { ROOT, startSitewalk } from '../support/cli';
import type { BundleInputs } from '../../electron/cli/bundle';
import { freePort } from '../support/net';

describe('the sitewalk executable', { timeout: 120_000 }, () => {
  it('runs through its shebang and exits 0 after printing the help', async ({ tempDir }) => {
    const run = await startSitewalk(tempDir, ['--help']).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: sitewalk/);
    expect(run.stdout).toMatch(/\bimport\b/);
  });

  it('builds a bundle of itself on its first run, starts from it after, and builds it again when a file it was made from changed', async ({ tempDir, onTestFinished }) => {
    // A folder of its own under the checkout (the bundle finds the native modules in its node_modules).
    const dir = join(ROOT, 'out', `cli-test-${process.pid}-${randomBytes(4).toString('hex')}`);
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const env = { SITEWALK_CLI_BUNDLE_DIR: dir };
    const help = async () => {
      const run = await startSitewalk(tempDir, ['--help'], { env }).done;
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^Usage: sitewalk/);
    };
    await help();
    const listed = join(dir, 'inputs.json');
    const inputs = JSON.parse(await readFile(listed, 'utf8')) as BundleInputs;
    expect(inputs.node).toBe(process.versions.node.split('.')[0]);
    const paths = inputs.inputs.map(([path]) => path);
    expect(paths).toEqual(expect.arrayContaining(['electron/cli/run.ts', 'electron/cli/main.ts', 'electron/core/bulk/preview-thread.ts', 'electron/core/tiles/mbtiles-child.ts']));
    expect(paths.some((path) => path.startsWith('node_modules/'))).toBe(true);
    for (const name of ['sitewalk.cjs', 'preview-thread.cjs', 'mbtiles-child.cjs']) expect(existsSync(join(dir, name)), name).toBe(true);
    // The second run starts from the bundle: nothing is built again.
    const built = (await stat(join(dir, 'sitewalk.cjs'))).mtimeMs;
    await help();
    expect((await stat(join(dir, 'sitewalk.cjs'))).mtimeMs).toBe(built);
    // A file it was made from is not as it was (here: its size as the list has it): built again.
    const [first, ...rest] = inputs.inputs;
    await writeFile(listed, JSON.stringify({ ...inputs, inputs: [[first![0], first![1], first![2] + 1], ...rest] }));
    await help();
    expect((await stat(join(dir, 'sitewalk.cjs'))).mtimeMs).toBeGreaterThan(built);
    expect(JSON.parse(await readFile(listed, 'utf8'))).toEqual(inputs);
  });

  it('runs from source when it cannot build its bundle', async ({ tempDir }) => {
    // A folder that cannot be made: under a file.
    await writeFile(join(tempDir, 'a-file'), '');
    const run = await startSitewalk(tempDir, ['--help'], { env: { SITEWALK_CLI_BUNDLE_DIR: join(tempDir, 'a-file', 'cli') } }).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: sitewalk/);
  });

  // A user runs it from wherever their files are: the import's preview runs in a worker thread, which
  // once looked for the TypeScript loader from the shell's folder and failed anywhere but the project.
  it('checks an import file when started from another folder', async ({ tempDir }) => {
    await writeFile(join(tempDir, 'towers.csv'), 'name,height,lat,lon\nRidge,30,45.1,-111.1\n');
    const run = await startSitewalk(tempDir, ['import', 'towers.csv', '--dry-run', '--data-dir', join(tempDir, 'data')], { cwd: tempDir }).done;
    expect(run.stderr).toMatch(/1 rows?: 1 to create/);
    expect(run.code, run.stderr).toBe(0);
  });

  it('exits 2 with one JSON document on stdout for a usage error', async ({ tempDir }) => {
    const run = await startSitewalk(tempDir, ['site', 'add', '--lat', 'north', '--json', '--data-dir', tempDir]).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^sitewalk: /m);
    expect(run.json).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });

  it('exits 0 once a call is answered, though the connection to the service stays open', async ({ sandbox, tempDir }) => {
    const run = await startSitewalk(tempDir, ['call', 'GetRenderingQualityList', '--base-url', sandbox.url, '--account', '10001'], { env: { SITEWALK_KEY: 'sandbox-demo-key' } }).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ ok: true, operation: 'GetRenderingQualityList' });
  });

  it('exits 1 when the service cannot be reached, saying nothing was sent', async ({ tempDir }) => {
    const port = await freePort();
    const run = await startSitewalk(tempDir, ['call', 'GetRenderingQualityList', '--base-url', `http://127.0.0.1:${port}`, '--account', '10001'], { env: { SITEWALK_KEY: 'k' } }).done;
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ ok: false, error: { kind: 'network', sent: 'no' } });
  });

  for (const [signal, exit] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`exits ${exit} on ${signal} while a call waits for a service that never answers`, async ({ tempDir }) => {
      // A service of our own that takes the request and says nothing.
      let asked!: () => void;
      const reached = new Promise<void>((resolve) => (asked = resolve));
      const silent = createServer(() => asked());
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const cli = startSitewalk(tempDir, ['call', 'GetRenderingQualityList', '--base-url', `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, '--account', '10001'], { env: { SITEWALK_KEY: 'k' } });
        await reached;
        cli.child.kill(signal);
        const run = await cli.done;
        expect({ code: run.code, signal: cli.child.signalCode }).toEqual({ code: exit, signal: null });
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });
  }
});
