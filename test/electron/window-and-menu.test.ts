// Window state between runs and the application menu, as a user meets them: the window comes back
// where it was unless that place is gone (monitor unplugged), bad stored values give the default,
// and the menu offers Sync now / Quit, zoom, about and the data folder, with reload in development only.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate } from '../../electron/main/menu';
import { DEFAULT_WINDOW_STATE, readWindowState } from '../../electron/main/window-state';

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('window state', () => {
  it('restores size, position and maximized state on a display that is still there', () => {
    expect(readWindowState({ x: 200, y: 150, width: 1400, height: 900, maximized: true }, screen)).toEqual({
      x: 200,
      y: 150,
      width: 1400,
      height: 900,
      maximized: true,
    });
  });

  it('keeps the size but lets the system place a window whose display is gone', () => {
    const state = readWindowState({ x: 3000, y: 100, width: 1200, height: 800, maximized: false }, screen);
    expect(state).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it('falls back to the default for missing or malformed state, and never below the minimum size', () => {
    expect(readWindowState(undefined, screen)).toEqual(DEFAULT_WINDOW_STATE);
    expect(readWindowState('1200x800', screen)).toEqual(DEFAULT_WINDOW_STATE);
    expect(readWindowState({ width: 'wide', height: 800 }, screen)).toEqual(DEFAULT_WINDOW_STATE);
    const tiny = readWindowState({ width: 10, height: 10 }, screen);
    expect(tiny.width).toBeGreaterThanOrEqual(800);
    expect(tiny.height).toBeGreaterThanOrEqual(560);
  });
});

function labels(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    String(item.label ?? item.role ?? item.type),
    ...(Array.isArray(item.submenu) ? labels(item.submenu).map((label) => `  ${label}`) : []),
  ]);
}

describe('application menu', () => {
  const actions = (isDev: boolean) => ({
    isMac: false,
    isDev,
    appName: 'Sitewalk',
    syncNow: vi.fn(),
    openDataFolder: vi.fn(),
    showAbout: vi.fn(),
  });

  it('offers sync, quit, editing, zoom, about and the data folder', () => {
    const shown = labels(buildMenuTemplate(actions(false)));
    for (const label of ['&File', '  Sync now', '  quit', '&Edit', '&View', '  zoomIn', '  zoomOut', '  resetZoom', '&Help', '  About Sitewalk', '  Open data folder']) {
      expect(shown).toContain(label);
    }
  });

  it('offers reload and developer tools in development only', () => {
    expect(labels(buildMenuTemplate(actions(false)))).not.toContain('  reload');
    expect(labels(buildMenuTemplate(actions(false)))).not.toContain('  toggleDevTools');
    expect(labels(buildMenuTemplate(actions(true)))).toContain('  reload');
  });

  it('runs the actions the items name', () => {
    const given = actions(false);
    const template = buildMenuTemplate(given);
    const find = (label: string) =>
      template.flatMap((item) => (Array.isArray(item.submenu) ? item.submenu : [])).find((item) => item.label === label)!;
    (find('Sync now').click as () => void)();
    (find('Open data folder').click as () => void)();
    (find('About Sitewalk').click as () => void)();
    expect(given.syncNow).toHaveBeenCalledOnce();
    expect(given.openDataFolder).toHaveBeenCalledOnce();
    expect(given.showAbout).toHaveBeenCalledOnce();
  });
});
