// Revisions: one counter for the whole core, so every view it hands out (an outbox entry, a site)
// carries a number that only grows. A consumer that keeps views (the renderer's store, a script
// following events) applies one only when its revision is newer than what it holds, so a call's
// late answer or a batch can never put an older view back on screen. Removals carry one too.
export class Revisions {
  private last = 0;
  private readonly latest = new Map<string, number>();
  /** Sites' revisions by local ID, without the "s:" (ofSite reads them without making a key per site). */
  private readonly sites = new Map<string, number>();

  /** A new revision for `key` (e.g. "e:o12", "s:local-abc"), newer than every one given before. */
  stamp(key: string): number {
    const revision = ++this.last;
    if (key.startsWith(SITE)) this.sites.set(key.slice(SITE.length), revision);
    else this.latest.set(key, revision);
    return revision;
  }

  /** The newest revision given to any key: it changes with every change. */
  get current(): number {
    return this.last;
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
