// The real Electron app, launched by Playwright's _electron: it runs wherever an Electron binary is
// installed and reports itself SKIPPED (never passed) where there is none, as on the machines this
// project is built on (the binary cannot be downloaded there).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleElectron, ensureRenderer, findElectronBinary, ROOT } from '../../electron/main/build';

const electron = findElectronBinary();
const skipReason = 'missing' in electron ? `SKIPPED: no Electron binary (${electron.missing})` : null;
if (skipReason) console.warn(`test/electron/smoke.test.ts ${skipReason}`);

describe.skipIf(skipReason !== null)(`Electron app (real binary)${skipReason ? ` — ${skipReason}` : ''}`, () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  });

  it('opens one sandboxed window whose page reaches the core only through window.sitewalk', { timeout: 180_000 }, async () => {
    await ensureRenderer();
    await bundleElectron();
    const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-electron-smoke-'));
    cleanup.push(dataDir);
    const app = await _electron.launch({
      executablePath: (electron as { path: string }).path,
      args: [ROOT, '--data-dir', dataDir, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      timeout: 60_000,
    });
    try {
      const page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toBe('app://sitewalk/index.html');
      const probe = await page.evaluate(async () => ({
        bridge: Object.keys((window as unknown as { sitewalk: object }).sitewalk).sort(),
        node: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
        status: await (window as unknown as { sitewalk: { invoke(method: string): Promise<{ host: string }> } }).sitewalk.invoke('getStatus'),
      }));
      expect(probe.bridge).toEqual(['invoke', 'onEvent']);
      expect(probe.node).toBe('undefined');
      expect(probe.process).toBe('undefined');
      expect(probe.status.host).toBe('electron');
      expect(app.windows()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
