// The application menu as data: File (Sync now, Quit), Edit (the standard roles, so copy/paste work
// in forms), View (reload only in development, zoom, full screen), Help (about, open data folder).
// The actions are callbacks, so the template can be checked without a window.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  isMac: boolean;
  /** Reload and developer tools are for development only: a reload in the field could drop a form. */
  isDev: boolean;
  appName: string;
  syncNow(): void;
  openDataFolder(): void;
  showAbout(): void;
}

export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    ...(actions.isDev
      ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[])
      : []),
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(actions.isMac ? ([{ label: actions.appName, role: 'appMenu' }] as MenuItemConstructorOptions[]) : []),
    {
      label: '&File',
      submenu: [
        { label: 'Sync now', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.syncNow() },
        { type: 'separator' },
        actions.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { label: '&Edit', role: 'editMenu' },
    { label: '&View', submenu: view },
    {
      label: '&Help',
      role: 'help',
      submenu: [
        { label: `About ${actions.appName}`, click: () => actions.showAbout() },
        { label: 'Open data folder', click: () => actions.openDataFolder() },
      ],
    },
  ];
}
