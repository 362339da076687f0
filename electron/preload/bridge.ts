// What the preload hands to the page: `invoke`, `onEvent` and the path of a picked file, nothing else. No ipcRenderer, no
// event objects (they carry `sender`), no Node: the page gets plain data and Errors with the
// host's sentence. Kept apart from index.ts so it can be tested with a fake ipcRenderer.
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import type { ApiEvent, SitewalkBridge } from '../shared/contract/index';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type InvokeReply } from './channels';

export type IpcRendererLike = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

/** Electron's webUtils.getPathForFile: the path of a File the page got from a file input ('' for one it made). */
export type PathForFile = (file: File) => string;

export function createPreloadBridge(ipcRenderer: IpcRendererLike, getPathForFile?: PathForFile): SitewalkBridge {
  async function invoke(method: string, ...args: unknown[]): Promise<unknown> {
    const reply = (await ipcRenderer.invoke(INVOKE_CHANNEL, method, args)) as InvokeReply;
    if (reply.ok) return reply.value;
    // Only the message survives contextBridge, so the host's sentence is the whole error.
    throw new Error(reply.error.message);
  }

  const bridge: SitewalkBridge = {
    invoke: invoke as SitewalkBridge['invoke'],
    onEvent(listener: (event: ApiEvent) => void): () => void {
      const relay = (_event: IpcRendererEvent, payload: ApiEvent) => listener(payload);
      ipcRenderer.on(EVENT_CHANNEL, relay);
      return () => void ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    },
  };
  if (getPathForFile) bridge.pathForFile = (file: object) => getPathForFile(file as File);
  return bridge;
}
