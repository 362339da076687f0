// The preload of the one BrowserWindow, bundled to a single CommonJS file (a sandboxed preload may
// only require 'electron'). It exposes `window.sitewalk` (the SitewalkBridge, with the path of a picked file) and nothing else.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadBridge } from './bridge';

contextBridge.exposeInMainWorld('sitewalk', createPreloadBridge(ipcRenderer, (file: File) => webUtils.getPathForFile(file)));
