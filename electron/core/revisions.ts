// Revisions: one counter for the whole data folder (kept in the database, shared by every process
// that has it open), so every view the core hands out (an outbox entry, a site) carries a number
// that only grows. A consumer that keeps views (the renderer's store, a script following events)
// applies one only when its revision is newer than what it holds, so a call's late answer or a
// batch can never put an older view back on screen. Removals carry one too.

/** Where new revisions come from: the database's write in progress (or a plain counter, alone). */
export interface RevisionSource {
  stamp(): number;
  readonly revision: number;
}

export function counterSource(): RevisionSource {
  let last = 0;
  return {
    stamp: () => ++last,
    get revision() {
      return last;
    },
  };
}

export class Revisions {
  private readonly latest = new Map<string, number>();
  /** Sites' revisions by local ID, without the "s:" (ofSite reads them without making a key per site). */
  private readonly sites = new Map<string, number>();

  constructor(private readonly source: RevisionSource = counterSource()) {}

  /** A new revision for `key` (e.g. "e:o12", "s:local-abc"), newer than every one given before. */
  stamp(key: string): number {
    const revision = this.source.stamp();
    this.note(key, revision);
    return revision;
  }

  /** Records a revision read from the database (another process's change, or a row loaded). */
  note(key: string, revision: number): void {
    if (key.startsWith(SITE)) {
      const localId = key.slice(SITE.length);
      if ((this.sites.get(localId) ?? 0) < revision) this.sites.set(localId, revision);
    } else if ((this.latest.get(key) ?? 0) < revision) this.latest.set(key, revision);
  }

  /** The newest revision given to any key: it changes with every change. */
  get current(): number {
    return this.source.revision;
  }

  /** The newest revision given to `key`, or 0. */
  of(key: string): number {
    return (key.startsWith(SITE) ? this.sites.get(key.slice(SITE.length)) : this.latest.get(key)) ?? 0;
  }

  /** of(siteKey(localId)), for listing many sites: no key string is made (and hashed) per site. */
  ofSite(localId: string): number {
    return this.sites.get(localId) ?? 0;
  }
}

export const entryKey = (entryId: string): string => `e:${entryId}`;
const SITE = 's:';
export const siteKey = (localId: string): string => `${SITE}${localId}`;
