// Reading the columnar chunks ("t":"sites") the old register journal wrote at compaction, for the
// one-time import (legacy-import.ts): each site is rebuilt from its columns as a plain object and
// then checked by the same schema as a single site record, so a damaged chunk is counted, never trusted.
//   {"t":"sites","n":2,"localId":["a","b"],"profileId":{"s":["p1"],"i":[0,0]},"siteId":["101",null],
//    "origin":{…},"known":{"name":["A",null],…},"appliedSeq":[…],"createdAt":[…],"updatedAt":[…],
//    "lost":[[1,"why"]],"draft":[[1,{…}]]}
import { SITE_FIELDS } from '../../shared/domain';

type Column = unknown[] | { s: unknown[]; i: Array<number | null> };

/** One column's values (a text column may hold its distinct texts once, with an index per site). */
function values(column: unknown, n: number): unknown[] | null {
  if (Array.isArray(column)) return column.length === n ? column : null;
  if (typeof column !== 'object' || column === null) return null;
  const { s, i } = column as { s?: unknown; i?: unknown };
  if (!Array.isArray(s) || !Array.isArray(i) || i.length !== n) return null;
  return i.map((at: unknown) => (at === null ? null : typeof at === 'number' ? s[at] : undefined));
}

/** The chunk's sites as plain objects (to be checked by the site schema), or null when its columns do not fit. */
export function unpackLegacyChunk(chunk: Record<string, unknown>): unknown[] | null {
  const n = chunk.n;
  if (!Number.isSafeInteger(n) || (n as number) < 1 || (n as number) > 100_000) return null;
  const count = n as number;
  const columns: Record<string, unknown[] | null> = {};
  for (const name of ['localId', 'profileId', 'siteId', 'origin', 'appliedSeq', 'createdAt', 'updatedAt']) columns[name] = values(chunk[name] as Column, count);
  if (Object.values(columns).some((column) => column === null)) return null;
  const known = (typeof chunk.known === 'object' && chunk.known !== null ? chunk.known : {}) as Record<string, unknown>;
  const fields: Array<[string, unknown[]]> = [];
  for (const field of SITE_FIELDS) {
    if (known[field] === undefined) continue;
    const column = values(known[field], count);
    if (!column) return null;
    fields.push([field, column]);
  }
  const lost = new Map(Array.isArray(chunk.lost) ? (chunk.lost as Array<[number, unknown]>) : []);
  const draft = new Map(Array.isArray(chunk.draft) ? (chunk.draft as Array<[number, unknown]>) : []);
  const sites: unknown[] = [];
  for (let k = 0; k < count; k++) {
    const site: Record<string, unknown> = {};
    for (const [name, column] of Object.entries(columns)) site[name] = column![k];
    site.known = Object.fromEntries(fields.filter(([, column]) => column[k] !== null).map(([field, column]) => [field, column[k]]));
    if (lost.has(k)) site.lost = lost.get(k);
    if (draft.has(k)) site.draft = draft.get(k);
    sites.push(site);
  }
  return sites;
}
