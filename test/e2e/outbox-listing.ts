// The outbox as the tests check it through the API: the page gets the unfinished entries and the
// newest page of the history from listOutbox, older pages from listOutboxHistory. `allEntries` reads
// every page, for a test that looks for one entry whatever its state. A listing holds the first 300
// waiting site edits (LISTED_PENDING), not all: these helpers refuse one that left any out.
import type { OutboxEntryView, OutboxHistoryPage, OutboxListing } from '../../electron/shared/contract/index';

type Call = <T>(method: string, ...args: unknown[]) => Promise<T>;

/** The page's listing, refused when it left waiting edits out (then it is not every unfinished entry). */
async function wholeListing(call: Call): Promise<OutboxListing> {
  const listing = await call<OutboxListing>('listOutbox');
  if (listing.pendingLeftOut > 0) throw new Error(`the outbox listing left ${listing.pendingLeftOut} waiting edits out: this helper reads every entry`);
  return listing;
}

/** Every entry of the active profile: the unfinished ones, then the history, newest first. */
export async function allEntries(call: Call): Promise<OutboxEntryView[]> {
  const listing = await wholeListing(call);
  const entries = [...listing.active, ...listing.history.entries];
  let next = listing.history.next;
  while (next !== null) {
    const page = await call<OutboxHistoryPage>('listOutboxHistory', { before: next, limit: 500 });
    entries.push(...page.entries);
    next = page.next;
  }
  return entries;
}

/** Entries not done yet (pending, sending, failed, needs-review, paused), oldest first. */
export async function activeEntries(call: Call): Promise<OutboxEntryView[]> {
  return (await wholeListing(call)).active;
}
