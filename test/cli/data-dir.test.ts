// The data folder's one rule (--data-dir, else SITEWALK_DATA_DIR, else the OS's app data folder +
// Sitewalk) as each host and the CLI apply it, and ensureDataDir on real folders under a temp dir:
// created private whatever the umask, an existing folder others can open reported, never changed.
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appDataFolder, dataDirArgument, defaultDataDir, ensureDataDir, resolveDataDir } from '../../electron/core/storage/data-dir';
import { parseStartArgs } from '../../electron/start';
import { makeTempDir } from '../support/temp';

describe('which data folder', () => {
  const env = { SITEWALK_DATA_DIR: '/srv/from-env', XDG_CONFIG_HOME: '/home/tech/.config-xdg' };

  it('takes --data-dir first, then SITEWALK_DATA_DIR, then the OS app data folder, a blank value counting as none', () => {
    expect(resolveDataDir({ flag: '/srv/from-flag', env })).toBe('/srv/from-flag');
    expect(resolveDataDir({ flag: '  ', env })).toBe('/srv/from-env');
    expect(resolveDataDir({ env })).toBe('/srv/from-env');
    expect(resolveDataDir({ env: { ...env, SITEWALK_DATA_DIR: ' ' } })).toBe(join(appDataFolder({ ...env, SITEWALK_DATA_DIR: ' ' }), 'Sitewalk'));
    expect(resolveDataDir({ env: {}, appData: '/Users/tech/Library/Application Support' })).toBe('/Users/tech/Library/Application Support/Sitewalk');
  });

  it('answers an absolute path, so a relative --data-dir names the same folder for every process', () => {
    expect(resolveDataDir({ flag: 'field-data', env: {} })).toBe(resolve('field-data'));
  });

  it("computes the OS's app data folder as Electron does, per platform", () => {
    expect(appDataFolder({ APPDATA: 'C:\\Users\\tech\\AppData\\Roaming' }, 'win32', 'C:\\Users\\tech')).toBe('C:\\Users\\tech\\AppData\\Roaming');
    expect(appDataFolder({}, 'darwin', '/Users/tech')).toBe('/Users/tech/Library/Application Support');
    expect(appDataFolder({ XDG_CONFIG_HOME: '/home/tech/xdg' }, 'linux', '/home/tech')).toBe('/home/tech/xdg');
    // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
    expect(appDataFolder({ XDG_CONFIG_HOME: 'xdg' }, 'linux', '/home/tech')).toBe('/home/tech/.config');
    expect(defaultDataDir('/home/tech/.config')).toBe('/home/tech/.config/Sitewalk');
  });

  it('gives the Electron host and the browser host the folder the CLI gets for the same input', () => {
    const appData = appDataFolder(env);
    // Electron's main reads its raw argv (binary, app path, Chromium switches) and passes app.getPath('appData').
    const electronDataDir = (argv: string[], environment: Record<string, string | undefined>) =>
      resolveDataDir({ flag: dataDirArgument(['/opt/Sitewalk/sitewalk', '--no-sandbox', ...argv]), env: environment, appData });
    for (const input of [{ flag: '/srv/one', env }, { flag: undefined, env }, { flag: undefined, env: { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME } }]) {
      const cli = resolveDataDir(input);
      const argv = input.flag ? ['--data-dir', input.flag] : [];
      expect(electronDataDir(argv, input.env)).toBe(cli);
      const started = parseStartArgs([...argv, '--browser'], input.env);
      expect('dataDir' in started && started.dataDir).toBe(cli);
    }
    expect(electronDataDir(['--data-dir=/srv/eq'], {})).toBe('/srv/eq');
    expect(electronDataDir(['--data-dir='], env)).toBe('/srv/from-env');
    expect(dataDirArgument(['sitewalk', '--data-dir'])).toBeUndefined();
  });
});

describe('ensureDataDir', () => {
  let root: { path: string; remove(): Promise<void> };
  let umask: number;
  beforeEach(async () => {
    root = await makeTempDir('sitewalk-data-dir-');
    umask = process.umask();
  });
  afterEach(async () => {
    process.umask(umask);
    await root.remove();
  });
  const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

  it('creates a missing folder, and its missing parents, readable by its owner only', async () => {
    await chmod(root.path, 0o755);
    const path = join(root.path, 'home', '.config', 'Sitewalk');
    expect(ensureDataDir(path)).toEqual({ created: true, warning: null });
    expect(await modeOf(path)).toBe(0o700);
    expect(await modeOf(join(root.path, 'home'))).toBe(0o700);
    // A folder that was there before is not its to change.
    expect(await modeOf(root.path)).toBe(0o755);
  });

  it('makes a folder it creates 0700 even under umask 000', async () => {
    process.umask(0o000);
    const path = join(root.path, 'Sitewalk');
    expect(ensureDataDir(path).created).toBe(true);
    expect(await modeOf(path)).toBe(0o700);
  });

  it('makes a folder it creates 0700 even when the umask takes the owner bits away', async () => {
    process.umask(0o277);
    const path = join(root.path, 'Sitewalk');
    ensureDataDir(path);
    expect(await modeOf(path)).toBe(0o700);
  });

  it('leaves a private existing folder alone and says nothing', async () => {
    const path = join(root.path, 'Sitewalk');
    await mkdir(path, { mode: 0o700 });
    await chmod(path, 0o700);
    expect(ensureDataDir(path)).toEqual({ created: false, warning: null });
  });

  it('warns, without changing it, when other users of the computer can open an existing folder', async () => {
    const path = join(root.path, 'Sitewalk');
    await mkdir(path);
    await chmod(path, 0o755);
    const check = ensureDataDir(path);
    expect(check.created).toBe(false);
    expect(check.warning).toMatch(/can be opened by every user of this computer \(its permissions are 755\)/);
    expect(check.warning).toContain(`chmod 700 "${path}"`);
    expect(await modeOf(path)).toBe(0o755);
  });

  it('warns about a folder its group can enter, and not about one its group can only write to', async () => {
    const path = join(root.path, 'Sitewalk');
    await mkdir(path);
    await chmod(path, 0o710);
    expect(ensureDataDir(path).warning).toMatch(/other users of its group .*710/);
    await chmod(path, 0o720);
    expect(ensureDataDir(path).warning).toBeNull();
  });

  it('does not judge modes on Windows, where they mean nothing', async () => {
    const path = join(root.path, 'Sitewalk');
    await mkdir(path);
    await chmod(path, 0o777);
    expect(ensureDataDir(path, 'win32')).toEqual({ created: false, warning: null });
  });

  it('refuses, with a sentence, when a file stands where the folder should be', async () => {
    const path = join(root.path, 'Sitewalk');
    await writeFile(path, 'not a folder');
    expect(() => ensureDataDir(path)).toThrow(/there is a file in its place/);
    expect(() => ensureDataDir(join(path, 'inside'))).toThrow(/there is a file in its place/);
  });
});
