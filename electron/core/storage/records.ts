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
  const reader = new RecordReader(schema, file, what, (record) => valid.push(record));
  for (const record of records) reader.accept(record);
  return { valid, problems: await reader.finish() };
}

/**
 * parseRecords one record at a time, for Journal.open's onRecord: each record is checked and handed
 * on as it is read, so the owner never holds the file's records (superseded ones included) all at once.
 */
export class RecordReader<T> {
  private index = 0;
  private readonly problems: StoredProblem[] = [];
  private readonly aside: string[] = [];
  private readonly at = new Date().toISOString();

  constructor(
    private readonly schema: z.ZodType<T>,
    private readonly file: string,
    private readonly what: string,
    private readonly onValid: (record: T) => void,
    /**
     * A hand-written check of the common shapes, tried before the schema: it must accept only records
     * the schema accepts AND returns unchanged (no unknown keys, which the schema would strip), so
     * taking the record as it is gives exactly what the schema would. Anything else goes to the schema.
     */
    private readonly fast?: (record: unknown) => record is T,
  ) {}

  accept(record: unknown): void {
    const index = this.index++;
    if (this.fast?.(record)) {
      this.onValid(record);
      return;
    }
    const parsed = this.schema.safeParse(record);
    if (parsed.success) {
      this.onValid(parsed.data);
      return;
    }
    const where = parsed.error.issues[0];
    const field = where && where.path.length > 0 ? ` (${where.path.join('.')}: ${where.message})` : '';
    this.problems.push({ kind: 'invalid-record', index, message: `Record ${index + 1} of the ${this.what} is not one Sitewalk can read${field}; it was set aside in ${this.file}.corrupt.` });
    this.aside.push(`# ${this.at} invalid-record ${index + 1}\n${JSON.stringify(record)}\n`);
  }

  /** The problems found, once the records that did not fit are kept aside in `<file>.corrupt`. */
  async finish(): Promise<StoredProblem[]> {
    if (this.aside.length > 0) await appendFile(`${this.file}.corrupt`, this.aside.join(''), { mode: 0o600 });
    this.aside.length = 0;
    return this.problems;
  }
}
