// The site register's rows in sitewalk.db: every statement on the table `sites`. A site's known
// fields are columns (the site list reads every site at start, without a JSON parse per site); the
// draft (fields of a first request, kept until the service confirms it) and the measurement of the
// known position (few sites have one) are JSON. A row is read through parseSiteRow, the one check
// of a stored site.
import type { Statement } from 'better-sqlite3';
import { z } from 'zod';
import { PIN_STYLES, type PinStyle } from '../../shared/domain';
import { measurementSchema } from '../../shared/validation/measurement';
import { storedSiteFieldsSchema } from '../../shared/validation/stored-site';
import type { SiteFields, SiteRecord } from '../sites/site-record';
import type { SitewalkDb } from './database';
import { RemovedLog, type Removal } from './removed-log';

/** A row of `sites`, as SQLite hands it over. */
export interface SiteRow {
  local_id: string;
  profile_id: string;
  site_id: string | null;
  origin: string;
  name: string | null;
  height: number | null;
  latitude: number | null;
  longitude: number | null;
  description: string | null;
  grp: string | null;
  pin_style: number | null;
  applied_seq: number;
  created_at: number;
  updated_at: number;
  lost: string | null;
  draft: string | null;
  rev: number;
  /** JSON, read through measurementSchema (migration 002). */
  measurement: string | null;
}

const ORIGINS = ['created', 'existing', 'imported'] as const;

export const siteFieldsSchema: z.ZodType<SiteFields> = storedSiteFieldsSchema;

export class UnreadableSiteError extends Error {
  override name = 'UnreadableSiteError';
}

/** The register's record of a row; a value no Sitewalk writes is refused with the site named. */
export function parseSiteRow(row: SiteRow): SiteRecord {
  const wrong = (what: string) => new UnreadableSiteError(`Site ${row.local_id} in the database has ${what}; it cannot be read.`);
  if (!(ORIGINS as readonly string[]).includes(row.origin)) throw wrong(`an unknown origin "${row.origin}"`);
  if (row.pin_style !== null && !(PIN_STYLES as readonly number[]).includes(row.pin_style)) throw wrong(`an unknown pin style ${row.pin_style}`);
  const known: SiteFields = {};
  if (row.name !== null) known.name = row.name;
  if (row.height !== null) known.height = row.height;
  if (row.latitude !== null) known.latitude = row.latitude;
  if (row.longitude !== null) known.longitude = row.longitude;
  if (row.description !== null) known.description = row.description;
  if (row.grp !== null) known.group = row.grp;
  if (row.pin_style !== null) known.pinStyle = row.pin_style as PinStyle;
  if (row.measurement !== null) {
    const parsed = measurementSchema.safeParse(parseJson(row.measurement, () => wrong('a measurement that is not JSON')));
    if (!parsed.success) throw wrong('a measurement of the wrong shape');
    known.measurement = parsed.data;
  }
  const record: SiteRecord = {
    localId: row.local_id,
    profileId: row.profile_id,
    siteId: row.site_id,
    origin: row.origin as SiteRecord['origin'],
    known,
    appliedSeq: row.applied_seq,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.lost !== null) record.lost = row.lost;
  if (row.draft !== null) {
    const parsed = siteFieldsSchema.safeParse(parseJson(row.draft, () => wrong('a draft that is not JSON')));
    if (!parsed.success) throw wrong('a draft of the wrong shape');
    record.draft = parsed.data;
  }
  return record;
}

function parseJson(text: string, wrong: () => Error): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw wrong();
  }
}

type Values = [string, string, string | null, string, string | null, number | null, number | null, number | null, string | null, string | null, number | null, number, number, number, string | null, string | null, number, string | null];

export class SitesTable {
  private readonly upsert: Statement<Values>;
  private readonly deleteOne: Statement<[string]>;
  private readonly allRows: Statement<[], SiteRow>;
  private readonly byId: Statement<[string], SiteRow>;
  private readonly changedSince: Statement<[number], SiteRow>;
  private readonly removed: RemovedLog;

  constructor(db: SitewalkDb) {
    const sql = db.sql;
    // An upsert keeps the row (and its rowid: the site's place in the list) when a site changes.
    this.upsert = sql.prepare(
      `INSERT INTO sites (local_id, profile_id, site_id, origin, name, height, latitude, longitude, description, grp, pin_style, applied_seq, created_at, updated_at, lost, draft, rev, measurement)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (local_id) DO UPDATE SET profile_id = excluded.profile_id, site_id = excluded.site_id, origin = excluded.origin, name = excluded.name, height = excluded.height, latitude = excluded.latitude, longitude = excluded.longitude, description = excluded.description, grp = excluded.grp, pin_style = excluded.pin_style, applied_seq = excluded.applied_seq, created_at = excluded.created_at, updated_at = excluded.updated_at, lost = excluded.lost, draft = excluded.draft, rev = excluded.rev, measurement = excluded.measurement`,
    );
    this.deleteOne = sql.prepare('DELETE FROM sites WHERE local_id = ?');
    this.allRows = sql.prepare('SELECT * FROM sites ORDER BY rowid');
    this.byId = sql.prepare('SELECT * FROM sites WHERE local_id = ?');
    this.changedSince = sql.prepare('SELECT * FROM sites WHERE rev > ? ORDER BY rowid');
    this.removed = new RemovedLog(db);
  }

  put(site: SiteRecord, rev: number): void {
    const k = site.known;
    this.upsert.run(
      site.localId,
      site.profileId,
      site.siteId,
      site.origin,
      k.name ?? null,
      k.height ?? null,
      k.latitude ?? null,
      k.longitude ?? null,
      k.description ?? null,
      k.group ?? null,
      k.pinStyle ?? null,
      site.appliedSeq,
      site.createdAt,
      site.updatedAt,
      site.lost ?? null,
      site.draft ? JSON.stringify(site.draft) : null,
      rev,
      k.measurement ? JSON.stringify(k.measurement) : null,
    );
  }

  delete(localId: string, rev: number): void {
    this.deleteOne.run(localId);
    this.removed.record('site', localId, rev);
  }

  get(localId: string): SiteRecord | undefined {
    const row = this.byId.get(localId);
    return row ? parseSiteRow(row) : undefined;
  }

  /** Every row, in the order the sites were first registered. */
  all(): IterableIterator<SiteRow> {
    return this.allRows.iterate();
  }

  changedAfter(since: number): { rows: SiteRow[]; removed: Removal[] } {
    return { rows: this.changedSince.all(since), removed: this.removed.after('site', since) };
  }
}
