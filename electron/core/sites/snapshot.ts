// The register's compaction snapshot in columns: up to CHUNK_SITES sites per journal record, one
// array per field, so 100,000 sites are ~100 lines instead of 100,000 objects with every key name
// repeated. Read back, a chunk gives exactly the SiteRecords a `put` per site would.
//
//   {"t":"sites","n":2,
//    "localId":["local-a","local-b"], "siteId":["101",null],
//    "profileId":{"s":["p1"],"i":[0,0]},            a text column: plain, or its distinct texts once
//    "origin":{"s":["existing","created"],"i":[0,1]},  and an index per site (null = absent)
//    "known":{"name":["A",null],"height":[30,null]},  one column per known field (null = not known;
//                                                      a field no site of the chunk knows is left out)
//    "appliedSeq":[4,0],"createdAt":[…],"updatedAt":[…],
//    "lost":[[1,"why"]], "draft":[[1,{"name":"B"}]]}   only the sites that have one: [index, value]
//
// Only ordinary appends stay one record per change (`put`/`del`); chunks are written by compaction
// alone. A chunk is checked as strictly as a `put`: every column of the right length and every value
// passing the test the record schema makes (chunkProblem). One that does not is set aside whole, like
// a damaged record. So that no site can spoil a chunk, a site whose values would not pass the check
// (a bug's record) is written on its own as a `put`, in its place, and read as one is read today.
import { PIN_STYLES, SITE_FIELDS, type PinStyle } from '../../shared/domain';
import { exactObject, isNonEmptyString, isNonNegativeInt, isNumber, isString, oneOf, opt, type Shape } from '../storage/shape';
import type { SiteFields, SiteOrigin, SiteRecord } from './register';

/**
 * Sites per chunk at most; a chunk also closes once its sites' texts pass CHUNK_TEXT characters.
 * Small enough that a chunk damaged on disk (set aside and reported) takes few sites with it, large
 * enough that a register of 100,000 sites is 500 lines to parse rather than 100,000.
 */
export const CHUNK_SITES = 200;
/** Keeps a chunk's line well under the journal's 1 MiB record size, whatever the sites' texts. */
const CHUNK_TEXT = 128 * 1024;

const ORIGINS: readonly SiteOrigin[] = ['created', 'existing', 'imported'];

/** A column of texts: one per site, or the distinct texts once with an index per site. */
type TextColumn = Array<string | null> | { s: string[]; i: Array<number | null> };
type FieldColumn = TextColumn | Array<number | null>;

export interface SiteChunk {
  t: 'sites';
  n: number;
  localId: TextColumn;
  profileId: TextColumn;
  siteId: TextColumn;
  origin: TextColumn;
  known: Partial<Record<keyof SiteFields, FieldColumn>>;
  appliedSeq: number[];
  createdAt: number[];
  updatedAt: number[];
  lost?: Array<[number, string]>;
  draft?: Array<[number, SiteFields]>;
}

type SnapshotRecord = SiteChunk | { t: 'put'; site: SiteRecord };

const TEXT_FIELDS = new Set<keyof SiteFields>(['name', 'description', 'group']);
const FIELD_TESTS: Record<keyof SiteFields, Shape> = {
  name: isString,
  height: isNumber,
  latitude: isNumber,
  longitude: isNumber,
  description: isString,
  group: isString,
  pinStyle: oneOf(PIN_STYLES),
};
const draftShape = exactObject(Object.fromEntries(SITE_FIELDS.map((field) => [field, opt(FIELD_TESTS[field])])));

/** The snapshot of `sites`, in their order: chunks, and a `put` for any site a chunk cannot hold as it is. */
export function snapshotRecords(sites: Iterable<SiteRecord>, chunkSites = CHUNK_SITES): SnapshotRecord[] {
  const out: SnapshotRecord[] = [];
  let batch: SiteRecord[] = [];
  let text = 0;
  const flush = () => {
    if (batch.length > 0) out.push(packChunk(batch));
    batch = [];
    text = 0;
  };
  for (const site of sites) {
    if (!fitsChunk(site)) {
      flush();
      out.push({ t: 'put', site });
      continue;
    }
    batch.push(site);
    text += textLength(site);
    if (batch.length >= chunkSites || text >= CHUNK_TEXT) flush();
  }
  flush();
  return out;
}

/** Whether every value a chunk keeps of `site` passes the reader's check (undefined = absent, as JSON has it). */
function fitsChunk(site: SiteRecord): boolean {
  if (typeof site !== 'object' || site === null) return false;
  if (!isNonEmptyString(site.localId) || !isString(site.profileId) || !(site.siteId === null || isString(site.siteId))) return false;
  if (!ORIGINS.includes(site.origin) || !isNonNegativeInt(site.appliedSeq) || !isNumber(site.createdAt) || !isNumber(site.updatedAt)) return false;
  if (site.lost !== undefined && !isString(site.lost)) return false;
  return fieldsFit(site.known) && (site.draft === undefined || fieldsFit(site.draft));
}

function fieldsFit(fields: SiteFields): boolean {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return false;
  for (const field of SITE_FIELDS) {
    const value = fields[field];
    if (value !== undefined && !FIELD_TESTS[field](value)) return false;
  }
  return true;
}

function textLength(site: SiteRecord): number {
  let length = site.localId.length + (site.siteId?.length ?? 0) + (site.lost?.length ?? 0);
  for (const fields of [site.known, site.draft]) {
    if (fields) length += (fields.name?.length ?? 0) + (fields.description?.length ?? 0) + (fields.group?.length ?? 0);
  }
  return length;
}

/** Only the fields the schema knows, without undefined ones (what a `put` would read back). */
function cleanFields(fields: SiteFields): SiteFields {
  const clean: Record<string, unknown> = {};
  for (const field of SITE_FIELDS) if (fields[field] !== undefined) clean[field] = fields[field];
  return clean as SiteFields;
}

function packChunk(sites: readonly SiteRecord[]): SiteChunk {
  const known: SiteChunk['known'] = {};
  for (const field of SITE_FIELDS) {
    let any = false;
    const values = sites.map((site) => {
      const value = site.known[field];
      if (value === undefined) return null;
      any = true;
      return value;
    });
    if (any) known[field] = TEXT_FIELDS.has(field) ? textColumn(values as Array<string | null>) : (values as Array<number | null>);
  }
  const chunk: SiteChunk = {
    t: 'sites',
    n: sites.length,
    localId: sites.map((site) => site.localId),
    profileId: textColumn(sites.map((site) => site.profileId)),
    siteId: sites.map((site) => site.siteId),
    origin: textColumn(sites.map((site) => site.origin)),
    known,
    appliedSeq: sites.map((site) => site.appliedSeq),
    createdAt: sites.map((site) => site.createdAt),
    updatedAt: sites.map((site) => site.updatedAt),
  };
  const lost: Array<[number, string]> = [];
  const draft: Array<[number, SiteFields]> = [];
  sites.forEach((site, index) => {
    if (site.lost !== undefined) lost.push([index, site.lost]);
    if (site.draft !== undefined) draft.push([index, cleanFields(site.draft)]);
  });
  if (lost.length > 0) chunk.lost = lost;
  if (draft.length > 0) chunk.draft = draft;
  return chunk;
}

/** The texts once and an index per site when they repeat (at most half are distinct); else as they are. */
function textColumn(values: Array<string | null>): TextColumn {
  const index = new Map<string, number>();
  const s: string[] = [];
  const i: Array<number | null> = new Array<number | null>(values.length);
  for (let k = 0; k < values.length; k++) {
    const value = values[k]!;
    if (value === null) {
      i[k] = null;
      continue;
    }
    let at = index.get(value);
    if (at === undefined) {
      at = s.length;
      if (2 * (at + 1) > values.length) return values;
      s.push(value);
      index.set(value, at);
    }
    i[k] = at;
  }
  return { s, i };
}

// ---------- reading ----------

const CHUNK_KEYS: Record<string, boolean> = { t: true, n: true, localId: true, profileId: true, siteId: true, origin: true, known: true, appliedSeq: true, createdAt: true, updatedAt: true, lost: false, draft: false };
const REQUIRED_KEYS = Object.values(CHUNK_KEYS).filter(Boolean).length;

/** Why `value` is not a chunk Sitewalk can read ({ path, message }), or null when it is one. */
export function chunkProblem(value: unknown): { path: Array<string | number>; message: string } | null {
  const problem = (path: Array<string | number>, message: string) => ({ path, message });
  if (!isPlainObject(value)) return problem([], 'not an object');
  let required = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !Object.hasOwn(CHUNK_KEYS, key)) return problem([key], 'unknown key');
    if (CHUNK_KEYS[key]) required++;
  }
  if (required !== REQUIRED_KEYS) return problem([], 'a column is missing');
  const chunk = value as Record<string, unknown>;
  if (chunk.t !== 'sites') return problem(['t'], 'not "sites"');
  const n = chunk.n;
  if (!Number.isSafeInteger(n) || (n as number) < 1) return problem(['n'], 'not a count of sites');
  const count = n as number;
  const texts: Array<[string, boolean, Shape]> = [
    ['localId', false, isNonEmptyString],
    ['profileId', false, isString],
    ['siteId', true, isString],
    ['origin', false, oneOf(ORIGINS)],
  ];
  for (const [key, nullable, test] of texts) {
    const message = textColumnProblem(chunk[key], count, nullable, test);
    if (message) return problem([key], message);
  }
  for (const [key, test] of [['appliedSeq', isNonNegativeInt], ['createdAt', isNumber], ['updatedAt', isNumber]] as const) {
    const message = columnProblem(chunk[key], count, false, test);
    if (message) return problem([key], message);
  }
  const known = chunk.known;
  if (!isPlainObject(known)) return problem(['known'], 'not an object');
  for (const key in known) {
    if (!Object.hasOwn(known, key) || !Object.hasOwn(FIELD_TESTS, key)) return problem(['known', key], 'unknown field');
    const field = key as keyof SiteFields;
    const column = known[field];
    const message = TEXT_FIELDS.has(field) ? textColumnProblem(column, count, true, FIELD_TESTS[field]) : columnProblem(column, count, true, FIELD_TESTS[field]);
    if (message) return problem(['known', key], message);
  }
  if (chunk.lost !== undefined) {
    const message = sparseProblem(chunk.lost, count, isString);
    if (message) return problem(['lost'], message);
  }
  if (chunk.draft !== undefined) {
    const message = sparseProblem(chunk.draft, count, draftShape);
    if (message) return problem(['draft'], message);
  }
  return null;
}

export const isSiteChunk = (value: unknown): value is SiteChunk => chunkProblem(value) === null;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function columnProblem(column: unknown, n: number, nullable: boolean, test: Shape): string | null {
  if (!Array.isArray(column) || column.length !== n) return `not a column of ${n}`;
  for (let k = 0; k < n; k++) {
    const value: unknown = column[k];
    if (value === null ? !nullable : !test(value)) return `site ${k} has a value Sitewalk cannot read`;
  }
  return null;
}

function textColumnProblem(column: unknown, n: number, nullable: boolean, test: Shape): string | null {
  if (Array.isArray(column)) return columnProblem(column, n, nullable, test);
  if (!isPlainObject(column)) return 'not a column';
  let keys = 0;
  for (const key in column) {
    if (!Object.hasOwn(column, key) || (key !== 's' && key !== 'i')) return 'not a column';
    keys++;
  }
  const { s, i } = column;
  if (keys !== 2 || !Array.isArray(s) || !s.every(test)) return 'its texts are not ones Sitewalk can read';
  if (!Array.isArray(i) || i.length !== n) return `not a column of ${n}`;
  for (let k = 0; k < n; k++) {
    const at: unknown = i[k];
    if (at === null ? !nullable : !(Number.isSafeInteger(at) && (at as number) >= 0 && (at as number) < s.length)) return `site ${k} has no text`;
  }
  return null;
}

function sparseProblem(column: unknown, n: number, test: Shape): string | null {
  if (!Array.isArray(column)) return 'not a list';
  let last = -1;
  for (const pair of column as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return 'not a list of [site, value]';
    const at: unknown = pair[0];
    if (!Number.isSafeInteger(at) || (at as number) <= last || (at as number) >= n) return 'sites out of order or out of range';
    if (!test(pair[1])) return `site ${at as number} has a value Sitewalk cannot read`;
    last = at as number;
  }
  return null;
}

function texts(column: TextColumn): Array<string | null> {
  if (Array.isArray(column)) return column;
  const { s, i } = column;
  const out = new Array<string | null>(i.length);
  for (let k = 0; k < i.length; k++) {
    const at = i[k]!;
    out[k] = at === null ? null : s[at]!;
  }
  return out;
}

/** Hands on each site of a chunk that passed chunkProblem, in order, as the SiteRecord a `put` would give. */
export function unpackChunk(chunk: SiteChunk, each: (site: SiteRecord) => void): void {
  const n = chunk.n;
  const localId = texts(chunk.localId) as string[];
  const profileId = texts(chunk.profileId) as string[];
  const siteId = texts(chunk.siteId);
  const origin = texts(chunk.origin) as SiteOrigin[];
  const known = chunk.known;
  const name = known.name === undefined ? undefined : (texts(known.name as TextColumn) as Array<string | null>);
  const height = known.height as Array<number | null> | undefined;
  const latitude = known.latitude as Array<number | null> | undefined;
  const longitude = known.longitude as Array<number | null> | undefined;
  const description = known.description === undefined ? undefined : texts(known.description as TextColumn);
  const group = known.group === undefined ? undefined : texts(known.group as TextColumn);
  const pinStyle = known.pinStyle as Array<PinStyle | null> | undefined;
  const lost = new Map(chunk.lost);
  const draft = new Map(chunk.draft);
  for (let k = 0; k < n; k++) {
    // Field by field, in SITE_FIELDS order: every record gets the same few object shapes.
    const fields: SiteFields = {};
    if (name !== undefined && name[k] !== null) fields.name = name[k]!;
    if (height !== undefined && height[k] !== null) fields.height = height[k]!;
    if (latitude !== undefined && latitude[k] !== null) fields.latitude = latitude[k]!;
    if (longitude !== undefined && longitude[k] !== null) fields.longitude = longitude[k]!;
    if (description !== undefined && description[k] !== null) fields.description = description[k]!;
    if (group !== undefined && group[k] !== null) fields.group = group[k]!;
    if (pinStyle !== undefined && pinStyle[k] !== null) fields.pinStyle = pinStyle[k]!;
    const site: SiteRecord = {
      localId: localId[k]!,
      profileId: profileId[k]!,
      siteId: siteId[k] as string | null,
      origin: origin[k]!,
      known: fields,
      appliedSeq: chunk.appliedSeq[k]!,
      createdAt: chunk.createdAt[k]!,
      updatedAt: chunk.updatedAt[k]!,
    };
    if (lost.size > 0 && lost.has(k)) site.lost = lost.get(k)!;
    if (draft.size > 0 && draft.has(k)) site.draft = draft.get(k)!;
    each(site);
  }
}
