// Runs the real electron-builder on this configuration, as far as this machine allows: no Electron
// binary can be downloaded here, so a stand-in that carries Electron's fuse wire is given as
// electronDist and the Linux `dir` target is packed (AppImage/deb need tools from the network).
// What a user would get is then read back: the fuses in the binary, the files in app.asar.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { extractFile, listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { it } from '../support/fixtures';
import { projectDir } from './support';

const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ENABLE = 0x31;
const DISABLE = 0x30;
// Electron 45's shipped defaults, so the test shows each hardened fuse actually changing.
const ELECTRON_DEFAULT_WIRE = [ENABLE, DISABLE, ENABLE, ENABLE, DISABLE, DISABLE, DISABLE, ENABLE];

interface Run {
  code: number | null;
  output: string;
}

function runBuilder(cwd: string, electronDist: string): Promise<Run> {
  const cli = path.join(projectDir, 'node_modules', 'electron-builder', 'cli.js');
  // No rebuild of native modules for Electron: it needs Electron's headers from the network, which
  // this machine cannot reach. Where a module was never rebuilt (a fresh clone) electron-builder
  // would spend minutes trying; the module built for Node is what is packed and checked here.
  const args = [cli, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${electronDist}`, '-c.npmRebuild=false'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function writeFileIn(root: string, relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

describe.skipIf(process.platform !== 'linux')('a Linux package built by electron-builder from this configuration', () => {
  let scratch: string;
  let app: string;
  let run: Run;
  let mainFile: string;

  it.beforeAll(async ({ fileTempDir }) => {
    scratch = fileTempDir;
    const electronDist = path.join(scratch, 'electron-dist');
    const project = path.join(scratch, 'project');

    await mkdir(electronDist, { recursive: true });
    const binary = Buffer.concat([
      Buffer.from('stand-in for the electron executable\n'),
      Buffer.from(FUSE_SENTINEL, 'latin1'),
      Buffer.from([1, ELECTRON_DEFAULT_WIRE.length, ...ELECTRON_DEFAULT_WIRE]),
      Buffer.alloc(32),
    ]);
    await writeFile(path.join(electronDist, 'electron'), binary);
    await chmod(path.join(electronDist, 'electron'), 0o755);
    await writeFile(path.join(electronDist, 'version'), '45.4.1');

    // A copy of the project as `npm run build` leaves it: real config and modules, built files, and
    // the sources, tests and docs that must stay out of the package.
    await mkdir(project);
    const packageJson = JSON.parse(await readFile(path.join(projectDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    mainFile = typeof packageJson.main === 'string' ? packageJson.main : 'dist/electron/main.cjs';
    packageJson.main = mainFile;
    await writeFile(path.join(project, 'package.json'), JSON.stringify(packageJson, null, 2));
    await copyFile(path.join(projectDir, 'electron-builder.yml'), path.join(project, 'electron-builder.yml'));
    await copyFile(path.join(projectDir, 'package-lock.json'), path.join(project, 'package-lock.json'));
    // node_modules as hard links (a copy where the scratch folder is on another disk), not one symlink:
    // npm lists packages whose real path lies outside the project as extraneous, and electron-builder
    // then leaves platform packages such as the keyring's native binding out of the package.
    // Hard links only on the same disk: tried across disks (the scratch folder is in memory under CI),
    // cp walked all of node_modules printing one error a file, some 4,000 lines in every CI log.
    const modules = path.join(projectDir, 'node_modules');
    const copied = path.join(project, 'node_modules');
    try {
      if (statSync(modules).dev !== statSync(project).dev) throw new Error('another disk');
      execFileSync('cp', ['-al', modules, copied], { stdio: 'ignore' });
    } catch {
      await rm(copied, { recursive: true, force: true });
      execFileSync('cp', ['-a', modules, copied]);
    }
    const built = [mainFile, 'dist/electron/preload.cjs', 'dist/electron/preview-thread.cjs', 'dist/electron/mbtiles-child.cjs', 'dist/renderer/index.html', 'dist/renderer/assets/index.js'];
    for (const file of built) await writeFileIn(project, file, '// built\n');
    for (const file of ['dist/electron/main.cjs.map', 'dist/renderer/assets/index.js.map']) await writeFileIn(project, file, '{}');
    for (const file of ['electron/core/app.ts', 'renderer/src/main.tsx', 'test/unit/a.test.ts', 'test/bench/run.ts', 'README.md', 'tsconfig.json', 'vitest.config.ts']) {
      await writeFileIn(project, file, '// source\n');
    }

    run = await runBuilder(project, electronDist);
    app = path.join(project, 'release', 'linux-unpacked');
  }, 240_000);

  it('packs without error', () => {
    expect(run.code, run.output).toBe(0);
  });

  it('ships an executable named sitewalk whose fuses are flipped to the hardened set', async () => {
    const wire = await getCurrentFuseWire(path.join(app, 'sitewalk'));
    const state = (fuse: FuseV1Options): string => String.fromCharCode(wire[fuse] as number);
    expect(state(FuseV1Options.RunAsNode)).toBe('0');
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0');
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0');
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe('1');
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1');
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1');
    expect(state(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe('0');
  });

  it('puts only the built app, package.json and production modules into app.asar', () => {
    const entries = listPackage(path.join(app, 'resources', 'app.asar'), { isPack: false }).map((entry) => entry.replace(/\\/g, '/'));
    const ours = entries.filter((entry) => !entry.startsWith('/node_modules'));
    expect(ours.filter((entry) => entry.includes('.')).sort()).toEqual(
      // The preview worker is listed too: the archive's index names what it keeps unpacked beside it.
      ['/package.json', `/${mainFile}`, '/dist/electron/preload.cjs', '/dist/electron/preview-thread.cjs', '/dist/electron/mbtiles-child.cjs', '/dist/renderer/index.html', '/dist/renderer/assets/index.js'].sort(),
    );
    expect(entries.filter((entry) => entry.endsWith('.map'))).toEqual([]);
    expect(entries.filter((entry) => /\.(ts|tsx|mts|cts)$/.test(entry))).toEqual([]);
    expect(entries.some((entry) => entry.startsWith('/node_modules/zod/'))).toBe(true);
    expect(entries.some((entry) => /^\/node_modules\/(tsx|esbuild|@esbuild)\//.test(entry))).toBe(false);
    expect(entries.some((entry) => entry.startsWith('/node_modules/vitest/') || entry.startsWith('/node_modules/electron-builder/'))).toBe(false);
  });

  it('writes desktopName into the packaged package.json so Linux desktops match the window to its launcher', () => {
    const packaged = JSON.parse(extractFile(path.join(app, 'resources', 'app.asar'), 'package.json').toString('utf8')) as Record<string, unknown>;
    expect(packaged.desktopName).toBe('sitewalk.desktop');
    expect(packaged.main).toBe(mainFile);
  });

  it('leaves the keyring native module outside the archive, where it can be loaded', () => {
    const unpacked = path.join(app, 'resources', 'app.asar.unpacked', 'node_modules', '@napi-rs');
    expect(existsSync(unpacked), 'app.asar.unpacked/node_modules/@napi-rs').toBe(true);
    const natives = readdirSync(unpacked, { recursive: true }).map(String).filter((file) => file.endsWith('.node'));
    expect(natives.length).toBeGreaterThan(0);
  });

  it('leaves the import preview worker outside the archive, where a worker thread can start it', () => {
    expect(existsSync(path.join(app, 'resources', 'app.asar.unpacked', 'dist', 'electron', 'preview-thread.cjs'))).toBe(true);
  });

  it('keeps the MBTiles reader inside the archive, beside main.cjs, where a utility process loads it and better-sqlite3 resolves', () => {
    expect(extractFile(path.join(app, 'resources', 'app.asar'), 'dist/electron/mbtiles-child.cjs').toString('utf8')).toBe('// built\n');
    expect(existsSync(path.join(app, 'resources', 'app.asar.unpacked', 'dist', 'electron', 'mbtiles-child.cjs'))).toBe(false);
    const entries = listPackage(path.join(app, 'resources', 'app.asar'), { isPack: false }).map((entry) => entry.replace(/\\/g, '/'));
    expect(entries.some((entry) => entry.startsWith('/node_modules/better-sqlite3/lib/'))).toBe(true);
    expect(entries.some((entry) => entry.startsWith('/node_modules/bindings/'))).toBe(true);
  });

  it('leaves the SQLite native module outside the archive, where it can be loaded', () => {
    const unpacked = path.join(app, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3');
    const natives = existsSync(unpacked) ? readdirSync(unpacked, { recursive: true }).map(String).filter((file) => file.endsWith('.node')) : [];
    expect(natives.length, 'app.asar.unpacked/node_modules/better-sqlite3/**/*.node').toBeGreaterThan(0);
  });
});
