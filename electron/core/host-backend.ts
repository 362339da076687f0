// A running backend, as both hosts hold it: the core opened in the data folder, the host services on
// it and the renderer adapter (host-api.ts), with the stored sync concurrency applied; closed in the
// reverse order.
import { createHostApi, type HostApi, type HostKind, type HostTileOptions } from './host-api';
import { openCore, type CoreOptions } from './open-core';
import type { TileProvider } from './tiles/index';

/** The core plus its renderer adapter, as a host starts and stops it. */
export interface HostBackend {
  hostApi: HostApi;
  /** Every basemap's tiles (/tiles/{basemapId}/{z}/{x}/{y}, and /tiles/{z}/{x}/{y} = the street map). */
  tiles: TileProvider;
  /** A connectivity hint from the host (Electron: net.isOnline()); the core still probes itself. */
  setOnline(online: boolean): void;
  syncNow(): Promise<void>;
  /** Flushes the outbox, stops the sandbox; safe to call twice. */
  close(): Promise<void>;
}

export interface OpenBackendOptions extends CoreOptions {
  host: HostKind;
  /** How tiles are fetched; the transport defaults to `fetch` (the core's, e.g. Electron's net.fetch). */
  tiles?: HostTileOptions;
}

/** Opens the core in `dataDir` and its adapter, with the stored sync concurrency applied. */
export async function openHostBackend(options: OpenBackendOptions): Promise<HostBackend> {
  const { host, tiles, ...coreOptions } = options;
  const core = await openCore(coreOptions);
  const transport = tiles?.fetch ?? coreOptions.fetch;
  const hostApi = createHostApi(core, { host, tiles: { ...tiles, ...(transport ? { fetch: transport } : {}) } });
  core.sync.setConcurrency((await hostApi.api.getSettings()).syncConcurrency);
  return {
    hostApi,
    tiles: hostApi.tiles,
    setOnline: (online) => core.sync.setConnectivity(online),
    syncNow: async () => void (await core.sync.syncNow()),
    close: async () => {
      await hostApi.close();
      return core.close();
    },
  };
}
