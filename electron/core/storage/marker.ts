// The data folder's memory of its database, kept beside it in sitewalk.db.state (replaced
// atomically): the revision the database had reached and what was waiting to be sent, written at
// close and every few seconds while things change. At open it tells a database that is missing,
// was replaced by an older copy or lost its write-ahead log from a new folder, and what it held
// that was unsent, so damage is said and no unsent edit is ever shown as synced (damage.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic, writeFileAtomicSync } from '../../node/atomic-file';
import { siteFieldsSchema } from './sites-table';

export const MARKER_FILE = 'sitewalk.db.state';
/** Sites with unsent changes named in the marker at most (the count is always exact). */
export const MARKER_SITES = 1000;

const markerSchema = z.object({
  revision: z.number().int().nonnegative(),
  unsent: z.number().int().nonnegative(),
  sites: z.array(
    z.object({
      localId: z.string().min(1),
      profileId: z.string(),
      siteId: z.string().nullable(),
      create: z.boolean(),
      fields: siteFieldsSchema,
    }),
  ),
  at: z.number(),
});

export type Marker = z.infer<typeof markerSchema>;
export type MarkedSite = Marker['sites'][number];

/** The marker, or null when there is none (a new folder) or it cannot be read (said by the caller as unknown). */
export function readMarker(dataDir: string): Marker | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, MARKER_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = markerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeMarker(dataDir: string, marker: Marker): Promise<void> {
  return writeFileAtomic(join(dataDir, MARKER_FILE), JSON.stringify(marker));
}

export function writeMarkerSync(dataDir: string, marker: Marker): void {
  writeFileAtomicSync(join(dataDir, MARKER_FILE), JSON.stringify(marker));
}
