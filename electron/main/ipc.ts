// The one IPC entry point of the main process. A call is answered only when it comes from the main
// frame of our window showing an app:// page: an iframe, a foreign page the window was somehow
// navigated to, or another WebContents gets a refusal and nothing reaches the core. The method
// and arguments are then checked by the shared dispatcher (API_METHODS), exactly as over HTTP.
import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { HostApiError, type HostApi } from '../core/host-api';
import { INVOKE_CHANNEL, type InvokeReply } from '../preload/channels';
import { isAppUrl, safeForLog } from './security';

/** Whether a frame is the top-level app page of the given WebContents. */
export function isTrustedSender(frame: WebFrameMain | null, sender: WebContents, window: WebContents | null): boolean {
  if (!frame || !window) return false;
  if (sender !== window) return false;
  if (frame.parent !== null || frame !== window.mainFrame) return false;
  return isAppUrl(frame.url);
}

export interface InvokeHandlerOptions {
  hostApi: HostApi;
  /** The WebContents of the app window (null before it exists or after it closed). */
  appContents: () => WebContents | null;
  log: (line: string) => void;
}

export async function answerInvoke(event: IpcMainInvokeEvent, method: unknown, args: unknown, options: InvokeHandlerOptions): Promise<InvokeReply> {
  if (!isTrustedSender(event.senderFrame, event.sender, options.appContents())) {
    options.log(`refused an API call from ${event.senderFrame ? safeForLog(event.senderFrame.url) : 'a frame that is gone'}`);
    return { ok: false, error: { code: 'forbidden', message: 'This page may not use the Sitewalk API.' } };
  }
  try {
    return { ok: true, value: await options.hostApi.dispatch(String(method), args) };
  } catch (error) {
    if (error instanceof HostApiError) return { ok: false, error: { code: error.code, message: error.message } };
    options.log(`${String(method)} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false, error: { code: 'internal', message: 'Sitewalk could not complete this request; details are in its log.' } };
  }
}

export function registerInvokeHandler(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, options: InvokeHandlerOptions): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, method: unknown, args: unknown) => answerInvoke(event, method, args, options));
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}
