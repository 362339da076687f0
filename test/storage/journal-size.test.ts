// The journal's size: exact at every step, bounded when written (one record, the whole file), and
// never a reason the data folder cannot be opened — a journal past 2 GiB is read line by line.
import { appendFile, open as openFile, readFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeRecord, Journal, JOURNAL_LIMITS, JournalLimitError, type JournalOpenOptions } from '../../electron/core/storage/journal';
import { makeTempDir as tempDir } from '../support/temp';

let dir: { path: string; remove(): Promise<void> };
let file: string;
const opened: Journal[] = [];

async function openJournal(options: JournalOpenOptions = {}) {
  const result = await Journal.open(file, 'test-journal', options);
  opened.push(result.journal);
  return result;
}

async function sizeOnDisk(): Promise<number> {
  return (await stat(file)).size;
}

beforeEach(async () => {
  dir = await tempDir('sitewalk-journal-size-');
  file = join(dir.path, 'test.journal');
});

afterEach(async () => {
  for (const journal of opened.splice(0)) await journal.close();
  await dir.remove();
});

describe('journal size', () => {
  it('knows its exact size after open, appends, a torn tail and a compaction', async () => {
    const { journal } = await openJournal();
    expect(journal.size).toBe(await sizeOnDisk());
    await journal.append([{ n: 1, text: 'ünïcode ✓' }, { n: 2 }]);
    expect(journal.size).toBe(await sizeOnDisk());
    expect(journal.size).toBe(journal.baseSize + Journal.encodedSize({ n: 1, text: 'ünïcode ✓' }) + Journal.encodedSize({ n: 2 }));
    await journal.close();
    await appendFile(file, encodeRecord({ n: 3 }).slice(0, 12));
    const reopened = await openJournal();
    expect(reopened.problems.map((problem) => problem.kind)).toEqual(['torn-tail']);
    expect(reopened.journal.size).toBe(await sizeOnDisk());
    await reopened.journal.compact(() => [{ n: 2 }]);
    expect(reopened.journal.size).toBe(await sizeOnDisk());
    expect(reopened.journal.baseSize).toBe(reopened.journal.size);
  });

  it('refuses one record over 1 MiB with a clear error, writes nothing of it, and goes on appending', async () => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }]);
    const before = await sizeOnDisk();
    const huge = { n: 2, problem: { detail: 'x'.repeat(JOURNAL_LIMITS.maxRecordBytes) } };
    const refused = journal.append([{ n: 'small, same call' }, huge]);
    await expect(refused).rejects.toBeInstanceOf(JournalLimitError);
    await expect(refused).rejects.toThrow(/A record of [\d,]+ bytes was not written to test\.journal: one record may take at most 1,048,576 bytes\./);
    expect(await sizeOnDisk()).toBe(before);
    expect(journal.size).toBe(before);
    await journal.append([{ n: 3 }]);
    await journal.close();
    expect((await openJournal()).records).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('refuses appends that would take the file past its limit, names the limit, and accepts them again after compaction', async () => {
    const limits = { maxFileBytes: 16 * 1024 };
    const { journal } = await openJournal({ limits });
    const record = (n: number) => ({ id: 'a', n, padding: 'p'.repeat(1000) });
    let n = 0;
    while (journal.size + Journal.encodedSize(record(n)) <= limits.maxFileBytes) await journal.append([record(n++)]);
    const refused = journal.append([record(n)]);
    await expect(refused).rejects.toMatchObject({ name: 'JournalLimitError', limit: 'file' });
    await expect(refused).rejects.toThrow('test.journal has reached its size limit (16,384 bytes)');
    expect(journal.size).toBe(await sizeOnDisk());
    expect(journal.size).toBeLessThanOrEqual(limits.maxFileBytes);
    expect(journal.compactionDue(1, { minBytes: 0 })).toBe(true);
    await journal.compact(() => [record(n - 1)]);
    await journal.append([record(n)]);
    await journal.close();
    expect((await openJournal({ limits })).records).toEqual([record(n - 1), record(n)]);
  });

  it('says when compaction is due by size, not only by record count', async () => {
    const { journal } = await openJournal();
    const big = { id: 'a', text: 'y'.repeat(100_000) };
    for (let i = 0; i < 10; i++) await journal.append([big]);
    // Ten records: far below any record-count threshold, but ten times the one live record's size.
    expect(journal.recordCount).toBe(10);
    expect(journal.compactionDue(1, { minBytes: 64 * 1024 })).toBe(true);
    expect(journal.compactionDue(1, { minBytes: 64 * 1024, liveBytes: journal.size })).toBe(false);
    expect(journal.compactionDue(1)).toBe(false);
    await journal.compact(() => [big]);
    expect(journal.compactionDue(1, { minBytes: 64 * 1024 })).toBe(false);
  });

  it('hands records one by one to onRecord, keeping none itself', async () => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await journal.close();
    const seen: unknown[] = [];
    const again = await openJournal({ onRecord: (record) => seen.push(record) });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(again.records).toEqual([]);
    expect(again.journal.recordCount).toBe(3);
  });

  it('sets aside a line too long to read, keeps the records around it, and copies only its start aside', async () => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }]);
    await journal.close();
    await appendFile(file, encodeRecord({ n: 2, blob: 'z'.repeat(300_000) }) + encodeRecord({ n: 3 }));
    const { records, problems } = await openJournal({ limits: { maxLineBytes: 100_000 } });
    expect(records).toEqual([{ n: 1 }, { n: 3 }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'corrupt-record', line: 3 });
    expect(problems[0]!.message).toMatch(/^Record 3 is too long to read \(300,0\d\d bytes; the limit is 100,000\) and was set aside/);
    expect(await readFile(`${file}.corrupt`, 'utf8')).toContain('corrupt-record line 3');
  });

  it('reports a file larger than it should ever grow, so its owner compacts it', async () => {
    const { journal } = await openJournal();
    await journal.append(Array.from({ length: 100 }, (_, n) => ({ n, padding: 'q'.repeat(100) })));
    await journal.close();
    const { problems, records } = await openJournal({ limits: { reportAboveBytes: 4096 } });
    expect(records).toHaveLength(100);
    expect(problems).toEqual([expect.objectContaining({ kind: 'oversized', bytes: await sizeOnDisk() })]);
    expect(problems[0]!.message).toMatch(/^test\.journal is [\d,]+ bytes, more than the 4,096 it should ever reach/);
  });

  it(
    'opens a journal past 2 GiB (what readFile cannot) by reading it line by line, and names what it set aside',
    async () => {
      const { journal } = await openJournal();
      await journal.append([{ n: 1 }, { n: 2 }]);
      await journal.close();
      // A run of zero bytes past 2 GiB with no newline (a sparse file: no disk space is used), then
      // two more good records: a damaged line between good ones, far too long to hold in memory.
      const junkStart = await sizeOnDisk();
      const junkEnd = 2 ** 31 + 4096;
      await truncate(file, junkEnd);
      const handle = await openFile(file, 'a');
      await handle.write(`\n${encodeRecord({ n: 3 })}${encodeRecord({ n: 4 })}`);
      await handle.close();
      expect(await sizeOnDisk()).toBeGreaterThan(2 ** 31);

      const { journal: big, records, problems } = await openJournal();
      expect(records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
      expect(problems.map((problem) => problem.kind)).toEqual(['corrupt-record', 'oversized']);
      expect(problems[0]).toMatchObject({ line: 4, offset: junkStart, bytes: junkEnd - junkStart + 1 });
      expect(problems[0]!.message).toMatch(/too long to read/);
      // Only the start of the damaged line was copied aside.
      expect((await stat(`${file}.corrupt`)).size).toBeLessThan(8 * 1024 * 1024);
      expect(big.size).toBe(await sizeOnDisk());
      // What the owner does on 'oversized' and 'corrupt-record': compact. The folder is whole again.
      await big.compact(() => records);
      expect(await sizeOnDisk()).toBeLessThan(1024);
      await big.close();
      expect((await openJournal()).records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    },
    120_000,
  );
});
