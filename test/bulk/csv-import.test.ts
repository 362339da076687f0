import { describe, expect, it } from 'vitest';
import { buildPreview, applyBlockers } from '../../electron/shared/bulk/preview';
import { parseDelimited } from '../../electron/shared/bulk/csv';
import { previewImport } from '../../electron/shared/bulk/import';
import { messages, previewFixture, rowAt } from './helpers';

const csv = (text: string, options = {}) => previewImport(new TextEncoder().encode(text), { fileName: 'sites.csv', ...options });

describe('CSV site import: messy files from office tools', () => {
  it('reads Excel "CSV UTF-8" (BOM, CRLF) with the canonical headers: one create, one edit', async () => {
    const preview = await previewFixture('utf8-bom.csv');
    expect(preview.problems).toEqual([]);
    expect(preview.details.encoding).toBe('utf-8 with byte-order mark');
    expect(preview.columns.map((c) => c.target)).toEqual(['siteId', 'name', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle']);
    expect(rowAt(preview, 2)).toMatchObject({
      action: 'create',
      ready: true,
      edit: { name: 'Caf\u00e9 Ridge', height: 30, latitude: 40.4461, longitude: -79.9822, description: 'North slope', group: 'Ridge', pinStyle: 2 },
    });
    expect(rowAt(preview, 3)).toMatchObject({ action: 'edit', ready: true, edit: { siteId: '100002', name: 'Z\u00fcrich Stra\u00dfe', pinStyle: 4 } });
    expect(preview.summary).toMatchObject({ total: 2, ready: 2, creates: 1, edits: 1, invalid: 0 });
  });

  it('maps Google Sheets style headers by alias (Site ID, Height (m), Lat, Lng, Notes, Color)', async () => {
    const preview = await previewFixture('utf8-nobom.csv');
    expect(preview.columns.map((c) => [c.header, c.target])).toEqual([
      ['Site ID', 'siteId'],
      ['Site Name', 'name'],
      ['Height (m)', 'height'],
      ['Lat', 'latitude'],
      ['Lng', 'longitude'],
      ['Notes', 'description'],
      ['Group', 'group'],
      ['Color', 'pinStyle'],
    ]);
    expect(rowAt(preview, 2).edit).toMatchObject({ pinStyle: 2, description: 'North slope' });
    expect(rowAt(preview, 3).edit).toMatchObject({ name: '\u65e5\u672c Tower', longitude: 139.6917 });
    expect(rowAt(preview, 3).edit?.pinStyle).toBeUndefined();
  });

  it('reads a Windows-1252 file (0xE9 = é) and says in the preview that it did', async () => {
    const preview = await previewFixture('windows-1252.csv');
    expect(preview.details.encoding).toBe('windows-1252');
    expect(preview.notes.join(' ')).toMatch(/read as Windows-1252/);
    expect(rowAt(preview, 2).edit).toMatchObject({ name: 'Caf\u00e9 Ridge', description: 'Lease 1200\u20ac \u2013 renewed' });
    expect(rowAt(preview, 3).edit?.name).toBe('M\u00fchle');
  });

  it('refuses a file that is neither UTF-8 nor believable Windows-1252, with nothing to apply', async () => {
    const preview = await previewFixture('not-western.csv');
    expect(preview.rows).toEqual([]);
    expect(preview.problems.join(' ')).toMatch(/still looks wrong.*CSV UTF-8/);
    expect(applyBlockers(preview, { skipInvalid: true })).not.toEqual([]);
  });

  it('reads European Excel: semicolons with decimal commas in coordinates and commas inside text', async () => {
    const preview = await previewFixture('semicolon-decimal-comma.csv');
    expect(preview.details.separator).toBe('semicolon');
    expect(rowAt(preview, 2).edit).toMatchObject({ latitude: 40.4461, longitude: -79.9822, description: 'Mast, Stahl, 30 m', group: 'Nord' });
    expect(rowAt(preview, 2).flags).toContain('decimal-comma');
    expect(rowAt(preview, 3).edit).toMatchObject({ name: 'S\u00fcdhang', latitude: 40.5, longitude: -80, pinStyle: 4 });
    expect(preview.notes.join(' ')).toMatch(/3 coordinates written with a decimal comma/);
  });

  it('honours Excel\'s "sep=;" first line and does not count it as a row', async () => {
    const preview = await previewFixture('semicolon-sep-line.csv');
    expect(preview.details.separator).toBe('semicolon');
    expect(preview.rows.map((r) => r.row)).toEqual([2]);
    expect(rowAt(preview, 2).edit).toMatchObject({ latitude: 40.4461, longitude: -79.9822 });
  });

  // One reader with the form and the CLI (issue 23): a coordinate has no thousands, so a quoted
  // "40,5" in a comma-separated file can only be a decimal comma.
  it('reads quoted decimal commas in a comma-separated file, as the form does', async () => {
    const preview = await csv('Sitename,height,Latitude,Longitude\nA,30,"40,5","-79,9"\n');
    expect(rowAt(preview, 2).edit).toMatchObject({ latitude: 40.5, longitude: -79.9 });
    expect(preview.notes.join(' ')).toMatch(/2 coordinates written with a decimal comma were read with a decimal point/);
  });

  it('reads degrees-minutes-seconds and heights written with their unit, as the form does', async () => {
    const preview = await csv('Sitename,height,Latitude,Longitude\nA,52 ft,"40°26\'46""N","79°58\'56""W"\nB,15.8 m,40 26 46 N,79 58 56 W\nC,"1,200 ft",40.1,-79.1\n');
    expect(rowAt(preview, 2).edit).toMatchObject({ height: 16, latitude: 40.4461111, longitude: -79.9822222 });
    expect(rowAt(preview, 2).warnings.join(' ')).toMatch(/52 ft is sent as 16 m/);
    expect(rowAt(preview, 3).edit).toMatchObject({ height: 16, latitude: 40.4461111, longitude: -79.9822222 });
    expect(rowAt(preview, 3).warnings.join(' ')).toMatch(/15.8 m is sent as 16 m/);
    // A comma before three digits could be thousands: refused with a sentence, never guessed.
    expect(rowAt(preview, 4).ready).toBe(false);
    expect(messages(rowAt(preview, 4))).toMatch(/could be 1200 or 1.200/);
  });

  it('reads tab-separated text with commas and quotes inside values', async () => {
    const preview = await previewFixture('tab-separated.tsv');
    expect(preview.details.separator).toBe('tab');
    expect(rowAt(preview, 2).edit).toMatchObject({ name: 'Ridge, North', description: 'Says "hi"' });
    expect(preview.summary.ready).toBe(2);
  });

  it('reads Excel "Unicode Text" (UTF-16LE, tabs, decimal commas)', async () => {
    const preview = await previewFixture('utf16le-unicode-text.txt');
    expect(preview.details.encoding).toBe('utf-16le with byte-order mark');
    expect(rowAt(preview, 2).edit).toMatchObject({ name: 'Caf\u00e9 Ridge', latitude: 40.4461, longitude: -79.9822 });
  });

  it('keeps quoted line breaks inside a description and numbers rows as the spreadsheet does', async () => {
    const preview = await previewFixture('quoted-newlines.csv');
    expect(rowAt(preview, 2).edit?.description).toBe('Line one\r\nLine two, with comma\r\n"quoted"');
    // The second site is on spreadsheet row 3 although it starts on text line 5.
    expect(rowAt(preview, 3).edit?.name).toBe('Valley');
  });

  it('skips blank and separator-only rows, ignores trailing empty columns and trims stray spaces in headers', async () => {
    const preview = await previewFixture('blank-lines.csv');
    expect(preview.problems).toEqual([]);
    expect(preview.columns.map((c) => c.header)).toEqual(['Siteid', 'Sitename', 'height', 'Latitude', 'Longitude']);
    expect(preview.rows.map((r) => [r.row, r.edit?.name])).toEqual([
      [3, 'Ridge'],
      [7, 'Valley'],
    ]);
    expect(preview.notes).toContain('4 blank rows were skipped.');
  });

  it('flags a site ID that appears twice on every occurrence and sends neither', async () => {
    const preview = await previewFixture('duplicates.csv');
    for (const row of [3, 5]) {
      expect(rowAt(preview, row)).toMatchObject({ ready: false, edit: null });
      expect(rowAt(preview, row).flags).toContain('duplicate-site-id');
      expect(messages(rowAt(preview, row))).toMatch(/Site ID 100002 is on rows 3 and 5/);
    }
    expect(rowAt(preview, 2).ready).toBe(true);
    expect(rowAt(preview, 4).ready).toBe(true);
    expect(preview.summary).toMatchObject({ duplicates: 2, invalid: 2, ready: 2 });
  });

  it('refuses the whole file when a quote is never closed, instead of reading half of it', async () => {
    const preview = await previewFixture('broken-quote.csv');
    expect(preview.problems.join(' ')).toMatch(/Row 3 opens a quoted value that is never closed/);
    expect(applyBlockers(preview, { skipInvalid: true }).length).toBeGreaterThan(0);
  });

  it('finds the header below a title row and says which rows it did not read', async () => {
    const preview = await previewFixture('title-row.csv');
    expect(preview.notes.join(' ')).toMatch(/header is on row 4; 2 rows above it were not read/);
    expect(rowAt(preview, 5).edit).toMatchObject({ name: 'Ridge', group: 'Audit' });
  });

  it('converts heights in feet to whole meters and shows both numbers', async () => {
    const preview = await previewFixture('feet.csv');
    expect(rowAt(preview, 2).edit?.height).toBe(30); // 100 ft = 30.48 m
    expect(rowAt(preview, 2).warnings.join(' ')).toMatch(/100 ft is sent as 30 m/);
    expect(rowAt(preview, 3).edit?.height).toBe(30); // 98.4 ft = 29.99 m
    expect(rowAt(preview, 4).ready).toBe(false);
    expect(messages(rowAt(preview, 4))).toMatch(/Height in feet must be a number/);
  });

  it('rounds feet half away from zero: 5 ft is 1.524 m → 2 m, 4.9 ft → 1 m', async () => {
    const preview = await csv('Sitename,height_ft,lat,lon\nA,5,1,1\nB,4.9,1,2\nC,1640.42,1,3\n');
    expect(preview.rows.map((r) => r.edit?.height)).toEqual([2, 1, 500]);
  });

  it('reports the shared schema\'s messages for invalid rows and keeps the valid ones ready', async () => {
    const preview = await previewFixture('mixed-valid.csv');
    expect(messages(rowAt(preview, 3))).toMatch(/Height must be a number of meters, like 30, or of feet, like 98 ft/);
    expect(messages(rowAt(preview, 4))).toMatch(/Latitude must be between -90 and 90/);
    expect(messages(rowAt(preview, 5))).toMatch(/Pin style must be 1 \(red\)/);
    expect(rowAt(preview, 6).edit?.pinStyle).toBe(3);
    expect(preview.summary).toMatchObject({ ready: 2, invalid: 3 });
    expect(applyBlockers(preview)).toEqual([expect.stringMatching(/3 rows are invalid/)]);
    expect(applyBlockers(preview, { skipInvalid: true })).toEqual([]);
  });

  it('blocks a row with more values than the header, naming the unquoted separator as the likely cause', async () => {
    const preview = await previewFixture('extra-cells.csv');
    expect(messages(rowAt(preview, 2))).toMatch(/1 more value than the header.*separator \(comma\) without quotes/);
    expect(rowAt(preview, 3).ready).toBe(true);
  });

  it('reads a number cell in its column\'s unit as the form does: "30.0" is 30 m, 30.6 is rounded and said, feet converted', async () => {
    const preview = await csv('Sitename;height;lat;lon\nA;30,0;1;1\nB;30.00;1;2\nC;30,6;1;3\nD;30,5 m;1;4\n');
    expect(preview.rows.map((r) => r.edit?.height ?? null)).toEqual([30, 30, 31, 31]);
    expect(preview.rows.map((r) => r.ready)).toEqual([true, true, true, true]);
    expect(rowAt(preview, 2).warnings).toEqual([]);
    expect(rowAt(preview, 4).warnings).toContain('Height 30.6 m is sent as 31 m (the service stores whole meters).');
    const feet = await csv('Sitename,height_ft,lat,lon\nA,98.5,1,1\n');
    expect(rowAt(feet, 2).edit?.height).toBe(30);
    expect(rowAt(feet, 2).warnings).toContain('Height 98.5 ft is sent as 30 m (rounded to the nearest whole meter).');
  });

  it('asks for a mapping when no header is recognised, and when no column gives the height', async () => {
    const none = await csv('Tower,Elevation\nA,30\n');
    expect(none.problems.join(' ')).toMatch(/No column is recognised \("Tower", "Elevation"\)/);
    const noHeight = await csv('Sitename,Latitude,Longitude\nA,1,2\n');
    expect(noHeight.problems.join(' ')).toMatch(/No column gives the tower height/);
  });

  it('applies a manual mapping by header or position, and a default for blank cells', async () => {
    const text = 'Tower,Elev ft,N,E,Colour\nRidge,100,40.1,-79.1,\nHill,,40.2,-79.2,green\n';
    const preview = await csv(text, { mapping: { Tower: 'name', 'Elev ft': 'heightFeet', '#3': 'latitude', E: 'longitude' }, defaults: { heightFeet: '50', pinStyle: 'blue' } });
    expect(preview.problems).toEqual([]);
    expect(preview.columns.find((c) => c.header === 'Tower')).toMatchObject({ target: 'name', source: 'manual' });
    expect(rowAt(preview, 2).edit).toMatchObject({ name: 'Ridge', height: 30, latitude: 40.1, longitude: -79.1, pinStyle: 2 });
    expect(rowAt(preview, 3).edit).toMatchObject({ name: 'Hill', height: 15, pinStyle: 4 });
    expect(rowAt(preview, 3).flags).toContain('default-applied');
  });

  it('reports a mapping to a column or a field that does not exist, and blocks the apply', async () => {
    const preview = await csv('Sitename,height,lat,lon\nA,30,1,1\n', { mapping: { Tower: 'name', height: 'altitude' } });
    expect(preview.problems).toEqual([
      expect.stringMatching(/no column "Tower". Columns: "Sitename", "height", "lat", "lon"/),
      expect.stringMatching(/"altitude" is not a field/),
    ]);
  });

  it('marks edits that would change nothing in the register as unchanged, and lists what an edit changes', async () => {
    const text = 'Siteid,Sitename,height,Group\n100001,Ridge,30,North\n100002,Valley,25,South\n';
    const preview = await csv(text, {
      known: [
        { siteId: '100001', name: 'Ridge', height: 30, group: 'North', latitude: 40, longitude: -79, pinStyle: 1 },
        { siteId: '100002', name: 'Valley', height: 20, group: 'South', latitude: 41, longitude: -79, pinStyle: 1 },
      ],
    });
    expect(rowAt(preview, 2)).toMatchObject({ action: 'unchanged', ready: false });
    expect(rowAt(preview, 3)).toMatchObject({ action: 'edit', ready: true, changes: ['height'] });
    expect(preview.summary).toMatchObject({ unchanged: 1, edits: 1, ready: 1 });
  });

  it('reads a blank height on an edit of a known site as unchanged, as its other blank cells; a new site or an unknown ID still needs one', async () => {
    const text = 'Siteid,Sitename,height,Latitude,Longitude\n100001,,,,\n100002,Valley North,,,\n999999,,,,\n,New,,45,-93\n100003,,,,\n100004,Renamed,,,\n';
    const preview = await csv(text, {
      known: [
        { siteId: '100001', name: 'Ridge', height: 30, latitude: 40, longitude: -79, pinStyle: 1 },
        { siteId: '100002', name: 'Valley', height: 20, latitude: 41, longitude: -79, pinStyle: 1 },
        // Added by its ID without a height, then exported: its row reads back as unchanged.
        { siteId: '100003', name: null, height: null, pinStyle: null },
        { siteId: '100004', name: null, height: null, pinStyle: null },
      ],
    });
    expect(rowAt(preview, 2)).toMatchObject({ action: 'unchanged', ready: false, issues: [] });
    expect(rowAt(preview, 3)).toMatchObject({ action: 'edit', ready: true, changes: ['name'], edit: { siteId: '100002', name: 'Valley North', height: 20 } });
    expect(rowAt(preview, 3).input.height).toBeUndefined();
    expect(messages(rowAt(preview, 4))).toMatch(/^Height is required/);
    expect(messages(rowAt(preview, 5))).toMatch(/^Height is required/);
    expect(rowAt(preview, 6).issues).toEqual([]);
    expect(messages(rowAt(preview, 7))).toMatch(/the register does not know site 100004's height/);
    // A file of site IDs without a height column: the sites the register knows keep their heights.
    const descriptions = await csv('Siteid,Description\n100001,North slope\n999999,South\n', { known: [{ siteId: '100001', name: 'Ridge', height: 30 }] });
    expect(descriptions.problems).toEqual([]);
    expect(rowAt(descriptions, 2)).toMatchObject({ action: 'edit', ready: true, changes: ['description'], edit: { height: 30, description: 'North slope' } });
    expect(messages(rowAt(descriptions, 3))).toMatch(/^Height is required/);
  });

  it('warns about a create at the position of a known site or of another row', async () => {
    const preview = await csv('Sitename,height,lat,lon\nA,30,40.1,-79.1\nB,30,40.1,-79.1\nC,30,45,-93\n', {
      known: [{ siteId: '7', latitude: 45, longitude: -93 }],
    });
    expect(rowAt(preview, 3).warnings.join(' ')).toMatch(/Row 2 creates a site at the same position/);
    expect(rowAt(preview, 4).warnings.join(' ')).toMatch(/Site 7 is already at this position/);
    expect(preview.summary.ready).toBe(3);
  });

  it('forgives a header cell with a BOM left inside it and collapses inner spaces', () => {
    const table = parseDelimited('\uFEFFSite   name ,height\nA,1\n');
    expect(table.columns).toEqual(['Site name', 'height']);
  });

  it('gives a preview made of plain data that survives a structured clone (Web Worker boundary)', async () => {
    const preview = await previewFixture('utf8-bom.csv');
    expect(structuredClone(preview)).toEqual(preview);
    const rebuilt = buildPreview(structuredClone(parseDelimited('Sitename,height,lat,lon\nA,30,1,1\n')));
    expect(rebuilt.summary.ready).toBe(1);
  });
});
