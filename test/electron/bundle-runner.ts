// Child-process half of bundle.test.ts: loads the built dist/electron/main.cjs with the fake electron
// module answering require('electron'), plays Electron's start-up, makes one call through the IPC
// handler, one MBTiles tile through app:// (read by the bundled reader in a utility process, faked on
// fork), and a quit, and prints what it saw as one JSON line. Run: tsx bundle-runner.ts MAIN DATA_DIR MBTILES
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { INVOKE_CHANNEL, type InvokeReply } from '../../electron/preload/channels';
import { createFakeElectron } from './fake-electron';

const [mainBundle, dataDir, mbtilesPath] = process.argv.slice(2);
const fake = createFakeElectron({ backend: 'basic_text' });
const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const original = loader._load;
loader._load = (request, ...rest) => (request === 'electron' ? fake.electron : original(request, ...rest));

process.argv.push('--data-dir', dataDir!);
createRequire(import.meta.url)(mainBundle!);
fake.app.becomeReady();
// The host opens the core, then creates the window and loads the page: wait for that last step.
const window = await new Promise<(typeof fake.windows)[number]>((resolve) => {
  const check = () => (fake.windows[0]?.webContents.getURL() ? resolve(fake.windows[0]) : setTimeout(check, 20));
  check();
});
const contents = window.webContents;
const status = (await fake.invoke(INVOKE_CHANNEL, contents, contents.mainFrame, 'getStatus', [])) as InvokeReply;
const profiles = (await fake.invoke(INVOKE_CHANNEL, contents, contents.mainFrame, 'listProfiles', [])) as InvokeReply;

/** Command lines of this process's children that run the MBTiles reader. */
function readers(): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid && command.includes('mbtiles-child')) found.push(command);
    } catch {
      // Ended while looked at.
    }
  }
  return found;
}

const added = (await fake.invoke(INVOKE_CHANNEL, contents, contents.mainFrame, 'addBasemapFile', [{ path: mbtilesPath }])) as { ok: true; value: { ok: true; value: { id: string; kind: string }[] } };
const basemapId = added.value.value.find((view) => view.kind === 'mbtiles')?.id;
const served = await fake.protocolHandlers.get('app')!(new Request(`app://sitewalk/tiles/${basemapId}/9/97/182`));
const tile = { status: served.status, contentType: served.headers.get('content-type'), readers: readers() };
const quit = once(fake.app, 'will-quit');
fake.app.quit();
await quit;
const readersAfterQuit = readers();
process.stdout.write(
  `${JSON.stringify({
    status,
    profiles,
    userData: fake.app.paths.get('userData'),
    preload: (window.options.webPreferences as { preload: string }).preload,
    sandbox: (window.options.webPreferences as { sandbox: boolean }).sandbox,
    url: contents.getURL(),
    tile,
    readersAfterQuit,
  })}\n`,
);
