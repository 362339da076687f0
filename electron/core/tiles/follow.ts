// The tile server template a host's cache should use now: the settings' tileUrl, followed through
// the settings events, so a changed server takes effect with the next tile request (the cache keeps
// each template's tiles apart). Read from memory, not from the settings store, once per tile.
import type { HostApi } from '../host-api';

export interface FollowedTileUrl {
  current(): string;
  stop(): void;
}

export async function followTileUrl(hostApi: Pick<HostApi, 'api' | 'onEvent'>): Promise<FollowedTileUrl> {
  let tileUrl: string | null = null;
  // Subscribed before reading, so a change made meanwhile is not lost.
  const stop = hostApi.onEvent((event) => {
    if (event.type === 'settings') tileUrl = event.settings.tileUrl;
  });
  try {
    const settings = await hostApi.api.getSettings();
    tileUrl ??= settings.tileUrl;
  } catch (error) {
    stop();
    throw error;
  }
  return { current: () => tileUrl!, stop };
}
