// electron-builder.yml is checked the way electron-builder itself will read it (its loader, its schema,
// its file matcher), plus the decisions a release depends on: targets per platform, hardened fuses,
// nothing but dist/ and package.json in app.asar, and icons present where the config points.
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import Ajv, { type ValidateFunction } from 'ajv';
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { generateIcons, IconSourceError, LINUX_SIZES } from '../../electron/build/icons';
import { it } from '../support/fixtures';
import { filesFilter, pngSize, projectDir, readBuilderYaml } from './support';

const schemaFile = path.join(projectDir, 'node_modules', 'app-builder-lib', 'scheme.json');

function strictSchemaValidator(): ValidateFunction {
  // electron-builder validates with coerceTypes on; without it, "true" where a boolean belongs fails here.
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`).join('\n');
}

function targetNames(target: unknown): string[] {
  const list = Array.isArray(target) ? target : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as { target: string }).target));
}

describe('electron-builder.yml', () => {
  const config = readBuilderYaml();

  it('is the configuration electron-builder loads, and its own validation accepts it', async () => {
    const packageJson = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    // A "build" block in package.json wins over electron-builder.yml and would silently replace it.
    expect(packageJson.build).toBeUndefined();

    const loaded = await getConfig(projectDir, null, null);
    expect(loaded.appId).toBe(config.appId);
    expect(loaded.electronFuses).toEqual(config.electronFuses);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it("matches electron-builder's JSON schema without type coercion", () => {
    const validate = strictSchemaValidator();
    const valid = validate(config);
    expect(describeErrors(validate)).toBe('');
    expect(valid).toBe(true);
  });

  it('the schema check rejects a misspelt fuse and a string where a boolean belongs', () => {
    const validate = strictSchemaValidator();
    const broken = {
      ...config,
      asar: 'yes',
      electronFuses: { ...config.electronFuses, runAsNodee: false },
    };
    expect(validate(broken)).toBe(false);
    const errors = describeErrors(validate);
    expect(errors).toMatch(/\/asar/);
    expect(errors).toMatch(/\/electronFuses must NOT have additional properties/);
  });

  it('names the app Sitewalk with a reverse-DNS app ID', () => {
    expect(config.productName).toBe('Sitewalk');
    expect(config.appId).toBe('com.sitewalk.app');
  });

  it('builds AppImage and deb for Linux, an NSIS installer for Windows and a dmg for macOS', () => {
    expect(targetNames(config.linux?.target).sort()).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
    expect(targetNames(config.mac?.target)).toEqual(['dmg']);
  });

  it('files the app under categories the desktops know', () => {
    const freedesktopMain = ['AudioVideo', 'Audio', 'Video', 'Development', 'Education', 'Game', 'Graphics', 'Network', 'Office', 'Science', 'Settings', 'System', 'Utility'];
    expect(freedesktopMain).toContain(config.linux?.category);
    expect(config.mac?.category).toMatch(/^public\.app-category\.[a-z-]+$/);
  });

  it('configures every fuse a hardened build needs', () => {
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('keeps an uninstall on Windows from deleting the data folder that holds unsynced edits', () => {
    expect(config.nsis?.deleteAppDataOnUninstall).toBe(false);
  });

  it('lets only the built app and package.json into app.asar', () => {
    const ships = filesFilter(config.files);
    for (const file of ['package.json', 'dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'dist/renderer/assets/index-3f2a.js']) {
      expect(ships(file), file).toBe(true);
    }
    const neverShips = [
      'dist/electron/main.cjs.map',
      'dist/renderer/assets/index-3f2a.js.map',
      'electron/core/app.ts',
      'electron/main/index.ts',
      'renderer/src/main.tsx',
      'test/release/builder-config.test.ts',
      'test/bench/run.ts',
      'test/fixtures/sites.csv',
      'README.md',
      'docs/guide.md',
      'tsconfig.json',
      'eslint.config.js',
      'vitest.config.ts',
      'electron-builder.yml',
      'assets/icon.svg',
      'build/icon.png',
      '.ci/run',
      'node_modules/tsx/dist/cli.mjs',
      'node_modules/@esbuild/linux-x64/bin/esbuild',
    ];
    for (const file of neverShips) {
      expect(ships(file), file).toBe(false);
    }
  });
});

describe('icons', () => {
  let outDir: string;
  const config = readBuilderYaml();
  // Paths in the config are relative to the project; the icon script writes into the build resources folder.
  const buildResources = config.directories?.buildResources ?? 'build';
  const inOut = (configured: string | null | undefined): string => {
    expect(configured, 'icon path configured').toBeTruthy();
    return path.join(outDir, path.relative(buildResources, configured as string));
  };

  it.beforeAll(async ({ fileTempDir }) => {
    outDir = fileTempDir;
    await generateIcons({ outDir });
  });

  it('gives Linux a PNG per hicolor size, each exactly the size its name says', async () => {
    const linuxDir = inOut(config.linux?.icon);
    const names = (await readdir(linuxDir)).sort();
    expect(names).toEqual(LINUX_SIZES.map((size) => `${size}x${size}.png`).sort());
    for (const size of LINUX_SIZES) {
      expect(pngSize(await readFile(path.join(linuxDir, `${size}x${size}.png`)))).toEqual({ width: size, height: size });
    }
  });

  it('gives macOS and Windows a square master big enough for .icns (512+) and .ico (256+)', async () => {
    for (const configured of [config.mac?.icon, config.win?.icon]) {
      const { width, height } = pngSize(await readFile(inOut(configured)));
      expect(width).toBe(height);
      expect(width).toBeGreaterThanOrEqual(1024);
    }
  });

  it('refuses a source that is not SVG and writes nothing', async ({ tempDir }) => {
    const source = path.join(tempDir, 'icon.svg');
    await writeFile(source, 'PNG? no.');
    const target = path.join(tempDir, 'build');
    await expect(generateIcons({ source, outDir: target })).rejects.toThrow(IconSourceError);
    await expect(generateIcons({ source, outDir: target })).rejects.toThrow(/is not a valid SVG/);
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a source that is not square, naming both sides', async ({ tempDir }) => {
    const source = path.join(tempDir, 'wide.svg');
    await writeFile(source, '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="50" height="50"/></svg>');
    await expect(generateIcons({ source, outDir: path.join(tempDir, 'build') })).rejects.toThrow(/must be square; it is 200×100/);
  });

  it('says which file is missing when the source does not exist', async () => {
    const missing = path.join(os.tmpdir(), 'sitewalk-no-such-icon.svg');
    await expect(generateIcons({ source: missing, outDir: path.join(os.tmpdir(), 'unused') })).rejects.toThrow(
      `The icon source ${missing} does not exist.`,
    );
  });
});
