// The site register's rows in sitewalk.db: every statement on the table `sites`. A site's known
// fields are columns (the site list reads a profile's sites as raw columns, without a JSON parse or
// an object per site); the draft (fields of a first request, kept until the service confirms it)
// and the measurement of the known position (few sites have one) are JSON. A row is read through
// parseSiteRow, the one check of a stored site; unreadable() finds the rows it would refuse, in SQL.
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

/**
 * A site as the packed list reads it (`listRowsOf`), as an array: local_id, site_id, origin, name,
 * height, latitude, longitude, description, grp, pin_style, created_at, updated_at, rev, and 1 when
 * the row also has a lost request or a measurement (which only its whole record shows), else 0.
 * Only what a site with nothing queued shows: no draft, no profile (the query's), no applied_seq.
 */
export type ListRow = [string, string | null, string, string | null, number | null, number | null, number | null, string | null, string | null, number | null, number, number, number, 0 | 1];

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
  private readonly byId: Statement<[string], SiteRow>;
  private readonly bySiteId: Statement<[string, string], SiteRow>;
  private readonly revById: Statement<[string], number>;
  private readonly countAll: Statement<[], number>;
  private readonly ofProfile: Statement<[string], SiteRow>;
  private readonly localIdsOf: Statement<[string], string>;
  private readonly listOfProfile: Statement<[string], ListRow>;
  private readonly changedSince: Statement<[number], SiteRow>;
  private readonly suspectRows: Statement<[], SiteRow>;
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
    this.byId = sql.prepare('SELECT * FROM sites WHERE local_id = ?');
    // Two rows may name the same service ID (an ID added again by hand): the one written last is the one found.
    this.bySiteId = sql.prepare('SELECT * FROM sites WHERE profile_id = ? AND site_id = ? ORDER BY rev DESC LIMIT 1');
    this.revById = sql.prepare<[string], number>('SELECT rev FROM sites WHERE local_id = ?').pluck();
    this.countAll = sql.prepare<[], number>('SELECT count(*) FROM sites').pluck();
    this.ofProfile = sql.prepare('SELECT * FROM sites WHERE profile_id = ? ORDER BY rowid');
    this.localIdsOf = sql.prepare<[string], string>('SELECT local_id FROM sites WHERE profile_id = ? ORDER BY rowid').pluck();
    this.listOfProfile = sql
      .prepare<[string], ListRow>(
        `SELECT local_id, site_id, origin, name, height, latitude, longitude, description, grp, pin_style, created_at, updated_at, rev, (lost IS NOT NULL OR measurement IS NOT NULL)
         FROM sites WHERE profile_id = ? ORDER BY rowid`,
      )
      .raw();
    // The rows parseSiteRow would refuse for a column, found by SQLite without the others reaching
    // JavaScript: an unknown origin or pin style, a draft or measurement that is not JSON. (A JSON's
    // shape is checked when the row is read.)
    this.suspectRows = sql.prepare(
      `SELECT * FROM sites
       WHERE origin NOT IN (${ORIGINS.map((origin) => `'${origin}'`).join(', ')})
          OR (pin_style IS NOT NULL AND pin_style NOT IN (${PIN_STYLES.join(', ')}))
          OR (draft IS NOT NULL AND NOT json_valid(draft))
          OR (measurement IS NOT NULL AND NOT json_valid(measurement))
       ORDER BY rowid`,
    );
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

  row(localId: string): SiteRow | undefined {
    return this.byId.get(localId);
  }

  /** The row written last that has this service ID in this profile. */
  rowBySiteId(profileId: string, siteId: string): SiteRow | undefined {
    return this.bySiteId.get(profileId, siteId);
  }

  /** The revision the site's row was last written at; undefined when there is no row. */
  revOf(localId: string): number | undefined {
    return this.revById.get(localId);
  }

  count(): number {
    return this.countAll.get() ?? 0;
  }

  /** A profile's rows, in the order the sites were first registered. */
  rowsOf(profileId: string): IterableIterator<SiteRow> {
    return this.ofProfile.iterate(profileId);
  }

  localIds(profileId: string): string[] {
    return this.localIdsOf.all(profileId);
  }

  /** A profile's sites as ListRows, in register order: the site list's one read. */
  listRowsOf(profileId: string): IterableIterator<ListRow> {
    return this.listOfProfile.iterate(profileId);
  }

  /** The rows parseSiteRow refuses for a column or a JSON's syntax: each site's local ID and parseSiteRow's sentence. */
  unreadable(): Array<{ localId: string; message: string }> {
    const found: Array<{ localId: string; message: string }> = [];
    for (const row of this.suspectRows.iterate()) {
      try {
        parseSiteRow(row);
      } catch (error) {
        if (!(error instanceof UnreadableSiteError)) throw error;
        found.push({ localId: row.local_id, message: error.message });
      }
    }
    return found;
  }

  changedAfter(since: number): { rows: SiteRow[]; removed: Removal[] } {
    return { rows: this.changedSince.all(since), removed: this.removed.after('site', since) };
  }
}
