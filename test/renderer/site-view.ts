// A site as the host shows it to the renderer, for the renderer's tests: a synced site with a
// service ID, a height and a position, unless the test says otherwise.
import type { SiteView } from '../../electron/shared/contract/index';

export function siteView(patch: Partial<SiteView> = {}): SiteView {
  return {
    localId: 'L1',
    siteId: '4711',
    profileId: 'p',
    origin: 'created',
    name: 'Ridge',
    height: 30,
    latitude: 40.5,
    longitude: -80.25,
    description: '',
    group: '',
    pinStyle: 1,
    measurement: null,
    syncState: 'synced',
    lastError: null,
    queued: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    revision: 1,
    ...patch,
  };
}
