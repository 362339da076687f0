// The preload's bridge with a fake ipcRenderer: calls go out on the one invoke channel with the
// arguments as an array, refusals come back as Errors carrying the host's sentence, events reach
// the page as plain data (never the IPC event with its sender) and can be unsubscribed.
import type { IpcRendererEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../electron/shared/contract/index';
import { createPreloadBridge, type IpcRendererLike } from '../../electron/preload/bridge';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type InvokeReply } from '../../electron/preload/channels';

function fakeIpcRenderer(reply: (method: string, args: unknown[]) => InvokeReply) {
  const calls: unknown[][] = [];
  const listeners = new Map<string, Set<(event: IpcRendererEvent, ...args: unknown[]) => void>>();
  const ipc = {
    async invoke(channel: string, ...args: unknown[]) {
      calls.push([channel, ...args]);
      return reply(args[0] as string, args[1] as unknown[]);
    },
    on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
      return ipc;
    },
    removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void) {
      listeners.get(channel)?.delete(listener);
      return ipc;
    },
  };
  const emit = (payload: unknown) => {
    const sender = { send: () => 'the sender must never reach the page' };
    for (const listener of listeners.get(EVENT_CHANNEL) ?? []) listener({ sender } as unknown as IpcRendererEvent, payload);
  };
  return { ipc: ipc as unknown as IpcRendererLike, calls, emit, listenerCount: () => listeners.get(EVENT_CHANNEL)?.size ?? 0 };
}

describe('preload bridge', () => {
  it('sends a call on the invoke channel with its arguments as one array and returns the value', async () => {
    const fake = fakeIpcRenderer(() => ({ ok: true, value: [{ id: 'p1' }] }));
    const bridge = createPreloadBridge(fake.ipc);
    await expect(bridge.invoke('resolveEntry', 'entry-1', '4711')).resolves.toEqual([{ id: 'p1' }]);
    expect(fake.calls).toEqual([[INVOKE_CHANNEL, 'resolveEntry', ['entry-1', '4711']]]);
  });

  it("turns a refusal into an Error with the host's sentence", async () => {
    const fake = fakeIpcRenderer(() => ({ ok: false, error: { code: 'bad-arguments', message: 'saveSite: argument 1: Invalid input' } }));
    const bridge = createPreloadBridge(fake.ipc);
    await expect(bridge.invoke('listSites')).rejects.toThrow('saveSite: argument 1: Invalid input');
  });

  it('delivers events as plain data and stops after unsubscribe', () => {
    const fake = fakeIpcRenderer(() => ({ ok: true, value: null }));
    const bridge = createPreloadBridge(fake.ipc);
    const received: unknown[] = [];
    const unsubscribe = bridge.onEvent((event) => received.push(event));
    const event: ApiEvent = { type: 'site-removed', localId: 'local-1', revision: 3 };
    fake.emit(event);
    expect(received).toEqual([event]);
    unsubscribe();
    fake.emit(event);
    expect(received).toHaveLength(1);
    expect(fake.listenerCount()).toBe(0);
  });

  it('exposes invoke and onEvent only', () => {
    const bridge = createPreloadBridge(fakeIpcRenderer(() => ({ ok: true, value: null })).ipc);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'onEvent']);
  });

  it('tells the page where a picked file is, through webUtils, when given it', () => {
    const picked = { name: 'valley.mbtiles' };
    const seen: unknown[] = [];
    const bridge = createPreloadBridge(fakeIpcRenderer(() => ({ ok: true, value: null })).ipc, (file) => {
      seen.push(file);
      return '/maps/valley.mbtiles';
    });
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'onEvent', 'pathForFile']);
    expect(bridge.pathForFile?.(picked)).toBe('/maps/valley.mbtiles');
    expect(seen).toEqual([picked]);
  });
});
