// The journal under the outbox and the register: what comes back after a reopen, after a crash cut
// the last write short, after a record in the middle was damaged, and after compaction.
import { appendFile, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { encodeRecord, Journal, JournalFormatError } from '../../electron/core/storage/journal';
import { it as base } from '../support/fixtures';

/** `journalFile`: where the test's journal lives; `openJournal(name?)`: opens it, closed again after the test. */
const it = base
  .extend('journalFile', ({ tempDir }) => join(tempDir, 'test.journal'))
  .extend('openJournal', ({ journalFile }, { onCleanup }) => {
    const opened: Journal[] = [];
    onCleanup(async () => {
      for (const journal of opened.splice(0)) await journal.close();
    });
    return async (name = 'test-journal') => {
      const result = await Journal.open(journalFile, name);
      opened.push(result.journal);
      return result;
    };
  });

describe('journal', () => {
  it('gives back every appended record, in order, after a reopen', async ({ openJournal }) => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }, { n: 2 }]);
    await journal.append([{ n: 3, text: 'line\nbreak "quoted" ünïcode' }]);
    await journal.close();
    const { records, problems } = await openJournal();
    expect(records).toEqual([{ n: 1 }, { n: 2 }, { n: 3, text: 'line\nbreak "quoted" ünïcode' }]);
    expect(problems).toEqual([]);
  });

  it('writes a batch of 10,000 records with one fsync', async ({ openJournal }) => {
    const { journal } = await openJournal();
    const before = journal.syncCount;
    await journal.append(Array.from({ length: 10_000 }, (_, n) => ({ n })));
    expect(journal.syncCount - before).toBe(1);
    expect(journal.recordCount).toBe(10_000);
  });

  it('lets appends made while a flush runs share the next fsync', async ({ openJournal }) => {
    const { journal } = await openJournal();
    const before = journal.syncCount;
    await Promise.all(Array.from({ length: 200 }, (_, n) => journal.append([{ n }])));
    expect(journal.syncCount - before).toBeLessThan(200);
    await journal.close();
    const { records } = await openJournal();
    expect(records).toHaveLength(200);
  });

  it('drops a torn last record, reports it as tolerated, and appends cleanly after it', async ({ openJournal, journalFile }) => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }, { n: 2 }]);
    await journal.close();
    // A crash cut the last write short: half a record, no newline.
    const half = encodeRecord({ n: 3, padding: 'x'.repeat(50) }).slice(0, 30);
    await appendFile(journalFile, half);
    const reopened = await openJournal();
    expect(reopened.records).toEqual([{ n: 1 }, { n: 2 }]);
    expect(reopened.problems.map((problem) => problem.kind)).toEqual(['torn-tail']);
    await reopened.journal.append([{ n: 4 }]);
    await reopened.journal.close();
    const again = await openJournal();
    expect(again.records).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }]);
    expect(again.problems).toEqual([]);
  });

  it('treats a complete but garbled last line (zeros after a power cut) as a torn tail', async ({ openJournal, journalFile }) => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }]);
    await journal.close();
    await appendFile(journalFile, Buffer.concat([Buffer.alloc(40), Buffer.from('\n')]));
    const reopened = await openJournal();
    expect(reopened.records).toEqual([{ n: 1 }]);
    expect(reopened.problems.map((problem) => problem.kind)).toEqual(['torn-tail']);
  });

  it('reports a damaged record in the middle, keeps the records around it, and sets the damaged bytes aside', async ({ openJournal, journalFile }) => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }, { n: 2, word: 'abcdef' }, { n: 3 }]);
    await journal.close();
    const text = await readFile(journalFile, 'utf8');
    await writeFile(journalFile, text.replace('abcdef', 'abXdef'));
    const reopened = await openJournal();
    expect(reopened.records).toEqual([{ n: 1 }, { n: 3 }]);
    expect(reopened.problems).toHaveLength(1);
    expect(reopened.problems[0]).toMatchObject({ kind: 'corrupt-record', line: 3 });
    expect(reopened.problems[0]!.message).toMatch(/damaged/);
    const quarantined = await readFile(`${journalFile}.corrupt`, 'utf8');
    expect(Buffer.from(quarantined.split('\n')[1]!, 'base64').toString()).toContain('abXdef');
  });

  it('compacts to a snapshot: smaller file, same state after reopen, appends continue after it', async ({ openJournal, journalFile, tempDir }) => {
    const { journal } = await openJournal();
    for (let n = 0; n < 50; n++) await journal.append([{ id: 'a', value: n }]);
    const sizeBefore = (await stat(journalFile)).size;
    await journal.compact(() => [{ id: 'a', value: 49 }]);
    await journal.append([{ id: 'b', value: 1 }]);
    expect((await stat(journalFile)).size).toBeLessThan(sizeBefore / 10);
    await journal.close();
    const { records, problems } = await openJournal();
    expect(records).toEqual([{ id: 'a', value: 49 }, { id: 'b', value: 1 }]);
    expect(problems).toEqual([]);
    expect((await readdir(tempDir)).filter((name) => name.includes('.compact'))).toEqual([]);
  });

  it('ignores a compaction temp file left by a crash and keeps the journal as it was', async ({ openJournal, journalFile }) => {
    const { journal } = await openJournal();
    await journal.append([{ n: 1 }]);
    await journal.close();
    await writeFile(`${journalFile}.compact`, 'half a snapshot');
    const { records } = await openJournal();
    expect(records).toEqual([{ n: 1 }]);
  });

  it('refuses a journal written by a newer version instead of damaging it', async ({ journalFile }) => {
    await writeFile(journalFile, encodeRecord({ journal: 'test-journal', version: 99 }));
    await expect(Journal.open(journalFile, 'test-journal')).rejects.toBeInstanceOf(JournalFormatError);
    expect(await readFile(journalFile, 'utf8')).toBe(encodeRecord({ journal: 'test-journal', version: 99 }));
  });

  it('refuses to read one kind of journal as another', async ({ openJournal, journalFile }) => {
    const { journal } = await openJournal('sitewalk-outbox');
    await journal.close();
    await expect(Journal.open(journalFile, 'sitewalk-sites')).rejects.toThrow(/sitewalk-outbox/);
  });

  it('starts a fresh journal when the whole file is a torn first write', async ({ openJournal, journalFile }) => {
    await writeFile(journalFile, '1234');
    const { records, problems, journal } = await openJournal();
    expect(records).toEqual([]);
    expect(problems.map((problem) => problem.kind)).toEqual(['torn-tail']);
    await journal.append([{ n: 1 }]);
    await journal.close();
    expect((await openJournal()).records).toEqual([{ n: 1 }]);
  });
});
