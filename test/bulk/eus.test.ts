import { describe, expect, it } from 'vitest';
import { planReprocess, readEusCsv, parseFilterSpec } from '../../electron/shared/bulk/eus';
import { fixture } from './helpers';

const encode = (text: string) => new TextEncoder().encode(text);

describe('bulk EUS reprocess: reading the service\'s EUS download and planning', () => {
  it('finds the process ID column and keeps the other columns for display', () => {
    const table = readEusCsv(fixture('eus-download.csv'));
    expect(table.problems).toEqual([]);
    expect(table.processIdColumn).toBe('ProcessID');
    expect(table.rows[0]).toEqual({
      row: 2,
      processId: '58001',
      values: { ProcessID: '58001', Date: '2024-05-01', Name: 'Ann Lee', Address: '12 Oak St, Apt 3', City: 'Millbrook', 'Multi Map': 'North', Result: 'Good' },
    });
  });

  it.each(['processid', 'Process ID', 'process_id', 'PROCESSID', ' Process  Id '])('recognises the header %j', (header) => {
    const table = readEusCsv(encode(`Name,${header}\nAnn,1\n`));
    expect(table.rows[0]?.processId).toBe('1');
  });

  it('says which columns it saw when there is no process ID column', () => {
    const table = readEusCsv(encode('Name,Address\nAnn,1 Oak St\n'));
    expect(table.problems).toEqual([expect.stringMatching(/No process ID column.*"Name", "Address"/)]);
  });

  it('plans one request per submission: a repeated process ID is queued once and points at its first row', () => {
    const plan = planReprocess(readEusCsv(fixture('eus-download.csv')), { multiMapId: '301', sendEmail: true });
    expect(plan.problems).toEqual([]);
    expect(plan.rows.map((row) => [row.row, row.processId, row.ready, row.sameAsRow ?? null])).toEqual([
      [2, '58001', true, null],
      [3, '58002', true, null],
      [4, '58003', true, null],
      [5, '58002', false, 3],
      [6, '', false, null],
    ]);
    expect(plan.rows[0]?.request).toEqual({ processId: '58001', multiMapId: '301', sendEmail: true });
    expect(plan.rows[4]?.issues[0]?.message).toMatch(/Process ID is required/);
    expect(plan.summary).toEqual({ total: 5, ready: 3, invalid: 1, repeats: 1, excluded: 0, heldBack: 0 });
  });

  it('filters rows by column value (case-insensitive, * as a wildcard) and by the selection', () => {
    const table = readEusCsv(fixture('eus-download.csv'));
    const north = planReprocess(table, { multiMapId: '301', sendEmail: false, filters: [{ column: 'multi map', value: 'north' }] });
    expect(north.rows.map((row) => row.processId)).toEqual(['58001', '58002', '58002']);
    expect(north.excluded).toBe(2);
    const may = planReprocess(table, { multiMapId: '301', sendEmail: false, filters: [{ column: 'Date', value: '2024-05-0[13]*' }] });
    expect(may.rows).toEqual([]);
    const wildcard = planReprocess(table, { multiMapId: '301', sendEmail: false, filters: [{ column: 'Name', value: 'c*' }, { column: 'City', value: 'Ridgeton' }] });
    expect(wildcard.rows.map((row) => row.processId)).toEqual(['58003']);
    const selected = planReprocess(table, { multiMapId: '301', sendEmail: false, selectedRows: [2, 4] });
    expect(selected.rows.map((row) => row.processId)).toEqual(['58001', '58003']);
  });

  it('reports a bad Multi Map ID once for the plan, not once per row, and queues nothing', () => {
    const plan = planReprocess(readEusCsv(fixture('eus-download.csv')), { multiMapId: 'north', sendEmail: false });
    expect(plan.problems).toEqual(['Multi Map ID must be digits only, like 12345.']);
    expect(plan.rows.every((row) => !row.ready)).toBe(true);
    expect(plan.rows[0]?.issues).toEqual([]);
  });

  it('reports a filter on a column the file does not have', () => {
    const plan = planReprocess(readEusCsv(fixture('eus-download.csv')), { multiMapId: '1', sendEmail: false, filters: [{ column: 'Zip', value: '1' }] });
    expect(plan.problems[0]).toMatch(/no column "Zip"/);
  });

  it('parses --filter specs', () => {
    expect(parseFilterSpec('Multi Map=North')).toEqual({ ok: true, filter: { column: 'Multi Map', value: 'North' } });
    expect(parseFilterSpec('City=')).toEqual({ ok: true, filter: { column: 'City', value: '' } });
    expect(parseFilterSpec('North')).toMatchObject({ ok: false });
  });
});
