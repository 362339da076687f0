// The one-time move of a data folder from the journal files older Sitewalks wrote (outbox.journal,
// sites.journal with its columnar chunks) into sitewalk.db: read-only, in ONE transaction, then the
// old files are moved into a backup folder the status names. The database remembers that it took
// them (meta 'legacy_imported'), so a crash between the commit and the move never imports twice.
// Each line is `<crc32 hex> <json>`; a line whose checksum or shape is wrong is counted and said
// (the backup keeps it), never silently dropped.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { entrySchema, patchSchema, pauseSchema, type OutboxEntry, type PauseInfo } from '../outbox/types';
import { foldEntry } from '../sites/fold';
import type { SiteRecord } from '../sites/site-record';
import type { SitewalkDb } from './database';
import { unpackLegacyChunk } from './legacy-chunks';
import { OutboxTable } from './outbox-table';
import { siteFieldsSchema, SitesTable } from './sites-table';

export const LEGACY_FILES = ['outbox.journal', 'sites.journal'] as const;
/** Files of the old store that go to the backup with the journals when present. */
const LEGACY_EXTRAS = ['outbox.journal.corrupt', 'sites.journal.corrupt', 'sitewalk.lock', 'rendering-qualities.json'];

const outboxRecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('add'), entry: entrySchema }),
  z.object({ t: z.literal('set'), id: z.string(), patch: patchSchema }),
  z.object({ t: z.literal('del'), id: z.string() }),
  z.object({ t: z.literal('pause'), profileId: z.string(), pause: pauseSchema.nullable() }),
  z.object({ t: z.literal('seq'), next: z.number().int().nonnegative() }),
]);

const siteRecordSchema: z.ZodType<SiteRecord> = z.object({
  localId: z.string().min(1),
  profileId: z.string(),
  siteId: z.string().nullable(),
  origin: z.enum(['created', 'existing', 'imported']),
  known: siteFieldsSchema,
  appliedSeq: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lost: z.string().optional(),
  draft: siteFieldsSchema.optional(),
}) as unknown as z.ZodType<SiteRecord>;

const registerRecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('put'), site: siteRecordSchema }),
  z.object({ t: z.literal('del'), localId: z.string() }),
]);

/** What the import found: counts for the status, and the lines it could not read. */
export interface LegacyImport {
  entries: number;
  unfinished: number;
  sites: number;
  skipped: number;
  backup: string;
  message: string;
}

/**
 * Imports the old journals of `dataDir` into `db` when there are any; null when there is nothing to
 * import. A journal from a newer Sitewalk (a header version this one does not know) is refused whole.
 */
export async function importLegacyFolder(dataDir: string, db: SitewalkDb, now: number): Promise<LegacyImport | null> {
  const present = LEGACY_FILES.filter((name) => existsSync(join(dataDir, name)));
  if (present.length === 0) return null;
  const imported = db.sql.prepare<[], number>("SELECT value FROM meta WHERE key = 'legacy_imported'").pluck().get();
  let counts = { entries: 0, unfinished: 0, sites: 0, skipped: 0 };
  if (imported === undefined) {
    const outbox = readJournal(await readOptional(join(dataDir, 'outbox.journal')), 'sitewalk-outbox', 1);
    const register = readJournal(await readOptional(join(dataDir, 'sites.journal')), 'sitewalk-sites', 2);
    const entries = new Map<string, OutboxEntry>();
    const pauses = new Map<string, PauseInfo>();
    let nextSeq = 1;
    let skipped = outbox.damaged + register.damaged;
    for (const raw of outbox.records) {
      const parsed = outboxRecordSchema.safeParse(raw);
      if (!parsed.success) {
        skipped++;
        continue;
      }
      const record = parsed.data;
      if (record.t === 'add') {
        entries.delete(record.entry.id);
        entries.set(record.entry.id, record.entry);
        nextSeq = Math.max(nextSeq, record.entry.seq + 1);
      } else if (record.t === 'set') {
        const previous = entries.get(record.id);
        if (previous) entries.set(record.id, { ...previous, ...record.patch, id: previous.id, seq: previous.seq, kind: previous.kind } as OutboxEntry);
      } else if (record.t === 'del') entries.delete(record.id);
      else if (record.t === 'pause') {
        if (record.pause) pauses.set(record.profileId, record.pause);
        else pauses.delete(record.profileId);
      } else nextSeq = Math.max(nextSeq, record.next);
    }
    const sites = new Map<string, SiteRecord>();
    for (const raw of register.records) {
      if ((raw as { t?: unknown }).t === 'sites') {
        const unpacked = unpackLegacyChunk(raw as Record<string, unknown>);
        if (!unpacked) skipped++;
        for (const candidate of unpacked ?? []) {
          const site = siteRecordSchema.safeParse(candidate);
          if (site.success) sites.set(site.data.localId, site.data);
          else skipped++;
        }
        continue;
      }
      const parsed = registerRecordSchema.safeParse(raw);
      if (!parsed.success) skipped++;
      else if (parsed.data.t === 'put') sites.set(parsed.data.site.localId, parsed.data.site);
      else sites.delete(parsed.data.localId);
    }
    // The old store wrote the outbox and the register in two writes: a result the register had not
    // folded yet (a crash between them) is folded now, as its repair at open did.
    for (const entry of [...entries.values()].sort((a, b) => a.seq - b.seq)) {
      if (entry.kind !== 'site' || entry.state !== 'done') continue;
      const site = sites.get(entry.localId);
      const folded = site ? foldEntry(site, entry, entry.updatedAt) : null;
      if (folded) sites.set(folded.localId, folded);
    }
    // The rendering-quality lists, so they are still there offline (each checked when read: qualities/cache.ts).
    let qualities: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse((await readOptional(join(dataDir, 'rendering-qualities.json'))) ?? '{}') as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) qualities = parsed as Record<string, unknown>;
    } catch {
      // A damaged cache is a cache: fetched again at the next refresh.
    }
    const outboxTable = new OutboxTable(db);
    const sitesTable = new SitesTable(db);
    db.write(() => {
      for (const entry of [...entries.values()].sort((a, b) => a.seq - b.seq)) outboxTable.put(entry, db.stamp(), null, now);
      outboxTable.setNextSeq(Math.max(nextSeq, outboxTable.nextSeq()));
      for (const [profileId, pause] of pauses) outboxTable.setPause(profileId, pause, db.stamp());
      for (const site of sites.values()) sitesTable.put(site, db.stamp());
      const putQualities = db.sql.prepare('INSERT OR REPLACE INTO qualities (profile_id, body) VALUES (?, ?)');
      for (const [profileId, value] of Object.entries(qualities)) putQualities.run(profileId, JSON.stringify(value));
      db.sql.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('legacy_imported', ?)").run(now);
    });
    const unfinished = [...entries.values()].filter((entry) => entry.state !== 'done').length;
    counts = { entries: entries.size, unfinished, sites: sites.size, skipped };
  }
  const backup = await moveAside(dataDir, now);
  const damaged = counts.skipped > 0 ? ` ${counts.skipped} damaged line(s) of the old files could not be read; they are in the backup.` : '';
  const message =
    imported === undefined
      ? `This data folder was moved to Sitewalk's new database: ${counts.sites} site(s) and ${counts.entries} outbox entr${counts.entries === 1 ? 'y' : 'ies'} (${counts.unfinished} not yet sent) in one step. The old files are kept in ${backup}.${damaged}`
      : `The old data files left beside the database (already imported) were moved to ${backup}.`;
  return { ...counts, backup, message };
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The records of a journal's text, after its header; lines that fail their checksum are counted. */
function readJournal(text: string | null, name: string, knownVersion: number): { records: unknown[]; damaged: number } {
  if (text === null) return { records: [], damaged: 0 };
  const records: unknown[] = [];
  let damaged = 0;
  let header = true;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const record = decodeLine(line);
    if (record === undefined) {
      damaged++;
      continue;
    }
    if (header) {
      header = false;
      const { journal, version } = record as { journal?: unknown; version?: unknown };
      if (journal === name) {
        if (typeof version === 'number' && version > knownVersion) {
          throw new Error(`${name === 'sitewalk-sites' ? 'sites.journal' : 'outbox.journal'} was written by a newer Sitewalk (format ${version}); update Sitewalk to open this data folder.`);
        }
        continue;
      }
    }
    records.push(record);
  }
  return { records, damaged };
}

function decodeLine(line: string): unknown {
  const json = line.slice(9);
  if (line.length < 10 || line[8] !== ' ' || !/^[0-9a-f]{8}$/.test(line.slice(0, 8)) || crc32(json) !== Number.parseInt(line.slice(0, 8), 16)) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** Moves the old files into `backup-before-database-<time>/`; returns that folder. */
async function moveAside(dataDir: string, now: number): Promise<string> {
  const folder = join(dataDir, `backup-before-database-${new Date(now).toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  for (const name of [...LEGACY_FILES, ...LEGACY_EXTRAS]) {
    const from = join(dataDir, name);
    if (existsSync(from)) await rename(from, join(folder, name));
  }
  return folder;
}
