// The preload of the one BrowserWindow, bundled to a single CommonJS file (a sandboxed preload may
// only require 'electron'). It exposes `window.sitewalk` (the SitewalkBridge) and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadBridge } from './bridge';

contextBridge.exposeInMainWorld('sitewalk', createPreloadBridge(ipcRenderer));
