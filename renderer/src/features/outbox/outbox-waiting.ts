// After a big import the host lists the first LISTED_PENDING edits waiting, not all (the status counts
// the rest): the entries left out reach the page as they change. Once those listed are mostly sent,
// the outbox panel asks for the next ones, so it keeps showing what will be sent next.
import { LISTED_PENDING } from '../../../../electron/shared/contract/index';
import type { AppStore } from '../../shared/store/app-store';

/** Ask again when fewer than this many waiting edits are held and more are counted. */
const REFILL_BELOW = LISTED_PENDING / 3;
/** At most one listing this often while the count says more wait than ever arrive (each is a query of the host). */
const REFILL_EVERY_MS = 2_000;

const lastAsked = new WeakMap<AppStore, number>();

/** Whether the panel, holding `held` of the `counted` edits waiting, should ask for the next ones now. */
export function shouldRefill(store: AppStore, held: number, counted: number, now: number): boolean {
  if (store.getState().outboxLeftOut === 0 || held >= REFILL_BELOW || counted <= held) return false;
  return now - (lastAsked.get(store) ?? -Infinity) >= REFILL_EVERY_MS;
}

/** Lists the outbox again and adds its unfinished entries to what is held (newer views winning, as any answer). */
export async function refillWaiting(store: AppStore, now: number): Promise<void> {
  lastAsked.set(store, now);
  const profileId = store.getState().status?.activeProfileId;
  const listing = await store.api.listOutbox();
  // A profile switch meanwhile replaced the data: this listing belongs to the other profile.
  if (store.getState().status?.activeProfileId !== profileId) return;
  store.applyChanges({ entries: listing.active, entriesRemoved: [], sites: [], sitesRemoved: [] });
  store.update({ outboxLeftOut: listing.pendingLeftOut });
}
