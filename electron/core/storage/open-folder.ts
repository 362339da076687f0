// Opening a data folder's database, whatever state the folder is in: a folder in the old journal
// format is imported (legacy-import.ts); a database that cannot be opened or fails its check is set
// aside under a new name (never overwritten, never deleted) and a new one started; a database that
// is missing, empty or older than the folder's marker remembers (marker.ts) is said, with what it
// held unsent, and its unsent sites are marked for review (damage.ts).
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { damageSentence, markLostSites } from './damage';
import { DamagedDatabaseError, DATABASE_FILE, SitewalkDb } from './database';
import { importLegacyFolder } from './legacy-import';
import { readMarker, writeMarkerSync } from './marker';
import type { StoredProblem } from './problems';

export async function openFolderDatabase(dataDir: string, now: number): Promise<{ db: SitewalkDb; problems: StoredProblem[] }> {
  const problems: StoredProblem[] = [];
  const marker = readMarker(dataDir);
  const existed = existsSync(join(dataDir, DATABASE_FILE));
  let what: string | null = null;
  let db: SitewalkDb;
  try {
    db = SitewalkDb.open(dataDir);
  } catch (error) {
    if (!(error instanceof DamagedDatabaseError)) throw error;
    const aside = await setAside(dataDir, now);
    what = `The data folder's database could not be read (${error.message}); it was set aside as ${aside} and Sitewalk started a new one.`;
    db = SitewalkDb.open(dataDir);
  }
  try {
    if (!what && marker && db.revision < marker.revision) {
      what = !existed
        ? `The data folder's database (${DATABASE_FILE}) is missing; Sitewalk started a new one.`
        : db.revision === 0
          ? `The data folder's database (${DATABASE_FILE}) is empty; it had reached revision ${marker.revision}.`
          : `The data folder's database is older than the one Sitewalk last used (revision ${db.revision}; it had reached ${marker.revision}): it was replaced by an older copy, or its write-ahead log (${DATABASE_FILE}-wal) was deleted.`;
    }
    if (what) {
      const marked = marker ? markLostSites(db, marker, now) : 0;
      problems.push({ kind: 'damage', message: damageSentence(what, marker, marked) });
    }
    const imported = await importLegacyFolder(dataDir, db, now);
    if (imported) problems.push({ kind: 'imported', message: imported.message });
    // From now on the folder remembers this database (and that it had one).
    writeMarkerSync(dataDir, { revision: db.revision, unsent: marker && what ? marker.unsent : 0, sites: marker && what ? marker.sites : [], at: now });
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, problems };
}

/** Renames the database and its WAL and shared-memory files to `<name>.damaged-<time>`; returns the database's new name. */
async function setAside(dataDir: string, now: number): Promise<string> {
  const suffix = `.damaged-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  for (const extra of ['', '-wal', '-shm']) {
    const from = join(dataDir, `${DATABASE_FILE}${extra}`);
    if (existsSync(from)) await rename(from, join(dataDir, `${DATABASE_FILE}${suffix}${extra}`));
  }
  return join(dataDir, `${DATABASE_FILE}${suffix}`);
}
