// The outbox's history is paged: the store holds the newest page and whatever "Show older" asked for.
import type { OutboxHistoryPage } from '../../../../electron/shared/contract/index';
import type { AppStore } from '../../shared/store/app-store';

/**
 * The next older page of the outbox's history, added to what is held (a page is applied like any
 * answer, by revision: an entry an event already moved on stays as the event left it).
 * Resolves false when there is nothing older or a load is already running.
 */
export async function loadOlderHistory(store: AppStore, limit?: number): Promise<boolean> {
  const { next, loading } = store.getState().outboxHistory;
  if (next === null || loading) return false;
  store.update({ outboxHistory: { ...store.getState().outboxHistory, loading: true } });
  let page: OutboxHistoryPage;
  try {
    page = await store.api.listOutboxHistory(limit === undefined ? { before: next } : { before: next, limit });
  } finally {
    store.update({ outboxHistory: { ...store.getState().outboxHistory, loading: false } });
  }
  // A profile switch meanwhile replaced the data: this page belongs to the other profile.
  if (store.getState().outboxHistory.next !== next) return false;
  store.applyChanges({ entries: page.entries, entriesRemoved: [], sites: [], sitesRemoved: [] });
  store.update({ outboxHistory: { next: page.next, total: page.total, loading: false } });
  return true;
}
