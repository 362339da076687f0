import { readFile, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect } from 'vitest';
import { readInputFile, writeTextFile } from '../../electron/core/bulk/files';
import { countStatuses, dryRunReport, reportCsv, runSucceeded, type ReportRow } from '../../electron/shared/bulk/report';
import { it } from '../support/fixtures';
import { previewFixture } from './helpers';

describe('the row-by-row report', () => {
  it('accounts for every row of a dry run, with what would happen and why not', async () => {
    const preview = await previewFixture('mixed-valid.csv');
    const rows = dryRunReport(preview);
    expect(rows.map((row) => [row.row, row.status])).toEqual([
      [2, 'would-queue'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'invalid'],
      [6, 'would-queue'],
    ]);
    expect(rows[1]?.message).toMatch(/Height must be a number of meters/);
    expect(rows[0]?.message).toBe('Would create a new site.');
  });

  it('writes CSV sorted by row with guarded text, that a spreadsheet reads back', () => {
    const rows: ReportRow[] = [
      { row: 3, siteId: '', name: '=evil()', action: 'create', status: 'invalid', message: 'Height is required.' },
      { row: 2, siteId: '100026', name: 'Ridge, North', action: 'create', status: 'created', message: 'Created as site 100026.' },
    ];
    const text = reportCsv(rows);
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ['row', 'siteId', 'name', 'action', 'status', 'message'],
      ['2', '100026', 'Ridge, North', 'create', 'created', 'Created as site 100026.'],
      ['3', '', "'=evil()", 'create', 'invalid', 'Height is required.'],
    ]);
  });

  it('counts statuses and calls a run successful only when nothing is left over', () => {
    const ok = countStatuses([
      { row: 2, siteId: '1', name: '', action: 'edit', status: 'updated', message: '' },
      { row: 3, siteId: '1', name: '', action: 'unchanged', status: 'unchanged', message: '' },
    ]);
    expect(runSucceeded(ok)).toBe(true);
    const held = countStatuses([{ row: 2, siteId: '', name: '', action: 'create', status: 'needs-review', message: '' }]);
    expect(held.needsReview).toBe(1);
    expect(runSucceeded(held)).toBe(false);
  });
});

describe('bulk file I/O', () => {
  it('reads a file whole and names it', async ({ tempDir }) => {
    await writeFile(join(tempDir, 'a.csv'), 'x');
    expect(await readInputFile(join(tempDir, 'a.csv'))).toMatchObject({ ok: true, fileName: 'a.csv', bytes: new Uint8Array([0x78]) });
  });

  it('says clearly when the file is missing, a folder or not readable', async ({ tempDir }) => {
    expect(await readInputFile(join(tempDir, 'missing.csv'))).toEqual({ ok: false, message: `There is no file at ${join(tempDir, 'missing.csv')}.` });
    expect(await readInputFile(tempDir)).toEqual({ ok: false, message: `${tempDir} is a folder, not a file.` });
    if (process.getuid?.() !== 0) {
      await writeFile(join(tempDir, 'locked.csv'), 'x');
      await chmod(join(tempDir, 'locked.csv'), 0o000);
      expect(await readInputFile(join(tempDir, 'locked.csv'))).toMatchObject({ ok: false, message: expect.stringMatching(/not allowed to read/) });
    }
  });

  it('writes atomically, replacing an old file and leaving no temporary file', async ({ tempDir }) => {
    const path = join(tempDir, 'out.csv');
    await writeFile(path, 'old');
    expect(await writeTextFile(path, 'new\r\n')).toEqual({ ok: true });
    expect(await readFile(path, 'utf8')).toBe('new\r\n');
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(tempDir)).toEqual(['out.csv']);
    expect(await writeTextFile(join(tempDir, 'no', 'such', 'dir.csv'), 'x')).toMatchObject({ ok: false, message: expect.stringMatching(/folder .* does not exist/) });
  });
});
