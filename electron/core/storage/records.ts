// Records read back from disk are parsed with a schema, never trusted: a record that passed the
// journal's checksum but does not have the shape this version writes (another version's, or a bug's)
// is named in a problem and kept aside in `<file>.corrupt`, never silently dropped.
import { appendFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { JournalProblem } from './journal';

/** A problem found in a data file: damaged bytes (the journal's), or a record of the wrong shape. */
export type StoredProblem =
  | JournalProblem
  | { kind: 'invalid-record'; index: number; message: string }
  /** Found by comparing the data files (an outbox that lost requests the site list has seen…). */
  | { kind: 'damage'; message: string };

/** The records that fit `schema`, in order, and a problem for each one that does not (kept aside first). */
export async function parseRecords<T>(records: readonly unknown[], schema: z.ZodType<T>, file: string, what: string): Promise<{ valid: T[]; problems: StoredProblem[] }> {
  const valid: T[] = [];
  const problems: StoredProblem[] = [];
  const aside: string[] = [];
  const at = new Date().toISOString();
  records.forEach((record, index) => {
    const parsed = schema.safeParse(record);
    if (parsed.success) {
      valid.push(parsed.data);
      return;
    }
    const where = parsed.error.issues[0];
    const field = where && where.path.length > 0 ? ` (${where.path.join('.')}: ${where.message})` : '';
    problems.push({ kind: 'invalid-record', index, message: `Record ${index + 1} of the ${what} is not one Sitewalk can read${field}; it was set aside in ${file}.corrupt.` });
    aside.push(`# ${at} invalid-record ${index + 1}\n${JSON.stringify(record)}\n`);
  });
  if (aside.length > 0) await appendFile(`${file}.corrupt`, aside.join(''), { mode: 0o600 });
  return { valid, problems };
}
