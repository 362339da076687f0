// The renderer's copy of the main process's state must never show something older than what it
// already showed: events that race the first load, and call answers that arrive after a newer
// event, are the two ways that could happen. Driven through a small in-memory API with the same
// shapes the hosts deliver (this is the UI's own store, so the host is what is faked here).
import { describe, expect, it, vi } from 'vitest';
import type { ApiEvent, OutboxEntryView, SiteView, SitewalkApi, StatusView } from '../../electron/shared/contract/index';
import { DEFAULT_SETTINGS, LISTED_PENDING, packSites } from '../../electron/shared/contract/index';
import { encodeSiteList, type SiteListWire } from '../../electron/shared/contract/site-list-wire';
import { createAppStore } from '../../renderer/src/app/store';
import { dismissProblem } from '../../renderer/src/features/status/problems-slice';
import { waiting } from '../support/wait';

function site(localId: string, patch: Partial<SiteView> = {}): SiteView {
  return {
    localId,
    siteId: null,
    profileId: 'p',
    origin: 'created',
    name: localId,
    height: 30,
    latitude: 45,
    longitude: -93,
    description: '',
    group: '',
    pinStyle: 1,
    measurement: null,
    syncState: 'pending',
    lastError: null,
    queued: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    revision: 1,
    ...patch,
  };
}

const status: StatusView = { online: true, syncing: false, paused: null, blocked: null, pendingCount: 0, sendingCount: 0, attentionCount: 0, lastSyncAt: null, connection: { state: 'online', lastError: null, nextTryAt: null }, activeProfileId: 'p', dataProblems: [], revision: 1, host: 'browser' };

function harness(initialSites: SiteView[]) {
  const listeners = new Set<(event: ApiEvent) => void>();
  let releaseList: () => void = () => undefined;
  let listGate = new Promise<void>((resolve) => (releaseList = resolve));
  const api = {
    getStatus: async () => status,
    listProfiles: async () => [],
    getSettings: async () => DEFAULT_SETTINGS,
    listSites: async () => {
      const snapshot = initialSites.map((s) => ({ ...s }));
      await listGate;
      return snapshot;
    },
    listOutbox: async () => ({ active: [], pendingLeftOut: 0, history: { entries: [], next: null, total: 0 } }),
  } as unknown as SitewalkApi;
  const store = createAppStore(api, (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  });
  return {
    store,
    emit: (event: ApiEvent) => listeners.forEach((l) => l(event)),
    releaseList: () => releaseList(),
    /** The next listSites answers only once releaseList is called again. */
    holdList: () => {
      listGate = new Promise<void>((resolve) => (releaseList = resolve));
    },
  };
}

describe('the renderer store', () => {
  it('applies events that arrive during the first load after it, so a stale snapshot never wins', async () => {
    const h = harness([site('a', { syncState: 'pending' })]);
    const started = h.store.start();
    // The sync engine finishes the site while listSites is still on its way.
    h.emit({ type: 'site', site: site('a', { syncState: 'synced', siteId: '100', updatedAt: '2026-01-01T00:00:05.000Z', revision: 5 }) });
    h.releaseList();
    await started;
    expect(h.store.getState().sites.get('a')).toMatchObject({ syncState: 'synced', siteId: '100' });
  });

  it('applies events that arrive while a profile switch reloads the lists after them, so the reload never shows an older view', async () => {
    const h = harness([site('a', { syncState: 'pending' })]);
    h.releaseList();
    await h.store.start();
    // The lists are read (the site still pending), then the site is sent, and a call's answer makes the
    // store apply what it gathered before they arrive.
    h.holdList();
    const reloading = h.store.reloadData();
    h.emit({ type: 'site', site: site('a', { syncState: 'synced', siteId: '100', updatedAt: '2026-01-01T00:00:05.000Z', revision: 5 }) });
    h.store.applyChanges({ entries: [], entriesRemoved: [], sites: [], sitesRemoved: [] });
    h.releaseList();
    await reloading;
    expect(h.store.getState().sites.get('a')).toMatchObject({ syncState: 'synced', siteId: '100' });
  });

  it('hands the map the first load as columns before any view exists, then the views as a reset with the events that raced it', async () => {
    const listeners = new Set<(event: ApiEvent) => void>();
    const api = {
      getStatus: async () => status,
      listProfiles: async () => [],
      getSettings: async () => DEFAULT_SETTINGS,
      listSitesPacked: async () => JSON.parse(JSON.stringify(encodeSiteList(packSites([site('a'), site('b', { latitude: null })])))) as SiteListWire,
      listOutbox: async () => ({ active: [], pendingLeftOut: 0, history: { entries: [], next: null, total: 0 } }),
    } as unknown as SitewalkApi;
    const store = createAppStore(api, (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    });
    const heard: string[] = [];
    store.onSiteColumns((list) => {
      heard.push(`columns ${list.localId.join(',')} loaded=${String(store.getState().loaded)} held=${store.getState().sites.size}`);
      // An event while the views are still to be made: held, then applied over them.
      listeners.forEach((l) => l({ type: 'site', site: site('a', { syncState: 'synced', revision: 5 }) }));
    });
    store.onSites((changed, _removed, reset) => heard.push(`${reset ? 'reset' : 'change'} ${changed.map((s) => `${s.localId}:${s.syncState}`).join(',')}`));
    await store.start();
    expect(heard).toEqual(['columns a,b loaded=false held=0', 'reset a:pending,b:pending', 'change a:synced']);
    expect(store.getState().sites.get('b')).toEqual(site('b', { latitude: null }));
    expect(store.getState().sites.get('a')?.syncState).toBe('synced');
  });

  it('keeps the first load as columns for a map still loading, and makes the views once its pins are drawn', async () => {
    const api = {
      getStatus: async () => status,
      listProfiles: async () => [],
      getSettings: async () => DEFAULT_SETTINGS,
      listSitesPacked: async () => JSON.parse(JSON.stringify(encodeSiteList(packSites([site('a'), site('b')])))) as SiteListWire,
      listOutbox: async () => ({ active: [], pendingLeftOut: 0, history: { entries: [], next: null, total: 0 } }),
    } as unknown as SitewalkApi;
    const store = createAppStore(api, () => () => undefined);
    store.expectMap();
    const heard: string[] = [];
    store.onSites((changed, _removed, reset) => heard.push(`${reset ? 'reset' : 'change'} ${changed.map((s) => s.localId).join(',')}`));
    const started = store.start();
    // The answer is in; the map's code is not: no view is made meanwhile.
    await vi.waitFor(() => expect(store.getState().connectionError).toBeNull(), waiting('the first answers'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().loaded).toBe(false);
    let drawn: () => void = () => undefined;
    store.onSiteColumns((list) => {
      heard.push(`columns ${list.localId.join(',')}`);
      return new Promise<void>((resolve) => (drawn = resolve));
    });
    await vi.waitFor(() => expect(heard).toEqual(['columns a,b']), waiting('the columns for the map'));
    // The pins are still waiting for their clusters: the views wait with them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().loaded).toBe(false);
    drawn();
    await started;
    expect(heard).toEqual(['columns a,b', 'reset a,b']);
    expect(store.getState().loaded).toBe(true);
  });

  it('ignores a call answer older than the event already shown', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    h.emit({ type: 'site', site: site('b', { syncState: 'synced', updatedAt: '2026-01-01T00:00:09.000Z', revision: 9 }) });
    h.store.flush();
    // saveSite's answer (pending) arrives after the synced event.
    h.store.applySite(site('b', { syncState: 'pending', updatedAt: '2026-01-01T00:00:08.000Z', revision: 8 }));
    expect(h.store.getState().sites.get('b')?.syncState).toBe('synced');
  });

  it('gathers a burst of site events into one change for the map', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    const batches: number[] = [];
    h.store.onSites((changed) => batches.push(changed.length));
    for (let i = 0; i < 500; i++) h.emit({ type: 'site', site: site(`s${i}`) });
    expect(h.store.getState().sites.size).toBe(0);
    // Once the store's timer has flushed them (25–200 ms after the first; later on a busy machine).
    await vi.waitFor(() => expect(h.store.getState().sites.size).toBe(500), waiting('the burst to be flushed'));
    expect(batches).toEqual([500]);
  });

  it("applies a transaction's change set in one update, and a later older view never brings back what it removed", async () => {
    const h = harness([site('gone')]);
    h.releaseList();
    await h.store.start();
    const mapHeard: Array<[number, number]> = [];
    h.store.onSites((changed, removed) => mapHeard.push([changed.length, removed.length]));
    let updates = 0;
    h.store.subscribe(() => updates++);
    const entry = (id: string, revision: number) =>
      ({ id, kind: 'site', state: 'pending', profileId: 'p', summary: id, payload: {}, attempts: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', nextAttemptAt: null, result: null, problem: null, revision }) as OutboxEntryView;
    const sites = Array.from({ length: 1000 }, (_, i) => site(`n${i}`, { revision: 10 }));
    h.emit({ type: 'changes', changes: { entries: sites.map((s, i) => entry(`e${i}`, 10)), entriesRemoved: [], sites, sitesRemoved: [{ localId: 'gone', revision: 10 }] } });
    h.store.flush();
    expect(updates).toBe(1);
    expect(mapHeard).toEqual([[1000, 1]]);
    // Of 1,000 waiting edits the store holds the first LISTED_PENDING, the status counting the rest.
    expect([...h.store.getState().outbox.keys()]).toEqual(sites.slice(0, LISTED_PENDING).map((s, i) => `e${i}`));
    expect(h.store.getState().outboxLeftOut).toBe(1000 - LISTED_PENDING);
    // A view from before the removal (a late call answer) arrives after it: the site stays gone.
    h.emit({ type: 'changes', changes: { entries: [], entriesRemoved: [], sites: [site('gone', { revision: 9 })], sitesRemoved: [] } });
    h.store.flush();
    expect(h.store.getState().sites.has('gone')).toBe(false);
    h.store.stop();
  });

  it('applies a quiet change within a moment, and a long burst (a sync sending site after site) at most 5 times a second', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const batches: number[] = [];
      h.store.onSites((changed) => batches.push(changed.length));
      h.emit({ type: 'site', site: site('first') });
      vi.advanceTimersByTime(25);
      expect(batches).toEqual([1]);
      // One site every 10 ms for two seconds: 200 events.
      for (let i = 0; i < 200; i++) {
        h.emit({ type: 'site', site: site(`s${i}`) });
        vi.advanceTimersByTime(10);
      }
      vi.advanceTimersByTime(200);
      expect(batches.slice(1).reduce((sum, n) => sum + n, 0)).toBe(200);
      expect(batches.length - 1).toBeLessThanOrEqual(11);
    } finally {
      vi.useRealTimers();
      h.store.stop();
    }
  });

  it('shows a quiet status change within a moment, and a sync\'s status after every site at most 5 times a second, the newest last', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      let renders = 0;
      h.store.subscribe(() => renders++);
      h.emit({ type: 'status', status: { ...status, syncing: true, revision: 2 } });
      vi.advanceTimersByTime(25);
      expect(h.store.getState().status).toMatchObject({ syncing: true, revision: 2 });
      expect(renders).toBe(1);
      // A status every 5 ms for two seconds (a sync sending a site each time), its count falling.
      for (let i = 0; i < 400; i++) {
        h.emit({ type: 'status', status: { ...status, syncing: true, pendingCount: 400 - i, revision: 3 + i } });
        vi.advanceTimersByTime(5);
      }
      vi.advanceTimersByTime(200);
      expect(renders - 1).toBeLessThanOrEqual(11);
      expect(h.store.getState().status).toMatchObject({ pendingCount: 1, revision: 402 });
    } finally {
      vi.useRealTimers();
      h.store.stop();
    }
  });

  it('removes a site on site-removed, and tells the map', async () => {
    const h = harness([site('c')]);
    h.releaseList();
    await h.store.start();
    const removed: string[] = [];
    h.store.onSites((_changed, gone) => removed.push(...gone));
    h.emit({ type: 'site-removed', localId: 'c', revision: 2 });
    h.store.flush();
    expect(h.store.getState().sites.has('c')).toBe(false);
    expect(removed).toEqual(['c']);
    h.store.stop();
  });

  it('keeps the newest problems the host reports, until each is dismissed', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    for (let i = 1; i <= 6; i++) h.emit({ type: 'problem', message: `Problem ${i}`, detail: `detail ${i}` });
    const shown = h.store.getState().problems;
    expect(shown.map((p) => p.message)).toEqual(['Problem 3', 'Problem 4', 'Problem 5', 'Problem 6']);
    dismissProblem(h.store, shown[0]!.id);
    expect(h.store.getState().problems.map((p) => p.message)).toEqual(['Problem 4', 'Problem 5', 'Problem 6']);
    h.store.stop();
  });

  it('shows a discard at once even though the entry\'s time goes backwards, and never brings it back', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    const entry = (revision: number, state: OutboxEntryView['state'], updatedAt: string) =>
      ({ id: 'o1', kind: 'site', state, profileId: 'p', summary: 'Edit', payload: {}, attempts: 1, createdAt: updatedAt, updatedAt, nextAttemptAt: null, result: null, problem: null, revision }) as OutboxEntryView;
    h.emit({ type: 'outbox', entry: entry(3, 'pending', '2026-01-01T00:00:09.000Z') });
    h.store.flush();
    // The discard is newer (revision 4) although nothing about its time says so.
    h.emit({ type: 'outbox-removed', entryId: 'o1', revision: 4 });
    // A late answer of an earlier call, in the same batch and after it.
    h.store.applyOutboxEntry(entry(3, 'pending', '2026-01-01T00:00:09.000Z'));
    h.emit({ type: 'outbox', entry: entry(2, 'pending', '2026-01-01T00:00:10.000Z') });
    h.store.flush();
    expect(h.store.getState().outbox.has('o1')).toBe(false);
  });

  it('lets the newest of several views in one batch win, whatever order they arrive in', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    h.emit({ type: 'site', site: site('d', { syncState: 'synced', revision: 7 }) });
    h.emit({ type: 'site', site: site('d', { syncState: 'pending', revision: 6 }) });
    h.store.flush();
    expect(h.store.getState().sites.get('d')?.syncState).toBe('synced');
  });

  it('never lets a call\'s late status answer replace a newer status event', async () => {
    const h = harness([]);
    h.releaseList();
    await h.store.start();
    h.emit({ type: 'status', status: { ...status, connection: { state: 'online', lastError: null, nextTryAt: null }, revision: 8 } });
    // The "Sync now" answer, computed while the service was still not answering, arrives last.
    h.store.applyStatus({ ...status, connection: { state: 'not-answering', lastError: null, nextTryAt: null }, revision: 7 });
    expect(h.store.getState().status?.connection.state).toBe('online');
    h.store.stop();
  });
});
