import { describe, expect, it } from 'vitest';
import { feetToMeters, normalizeHeader, parseTarget, targetForHeader } from '../../electron/shared/bulk/fields';
import { parseMappingSpec, resolveMapping } from '../../electron/shared/bulk/mapping';

describe('header aliases and manual mapping', () => {
  it.each([
    ['Siteid', 'siteId'], ['site_id', 'siteId'], ['site id', 'siteId'], ['ID', 'siteId'],
    ['Sitename', 'name'], ['name', 'name'], ['Site Name', 'name'],
    ['height', 'height'], ['height_m', 'height'], ['Height (m)', 'height'], ['HEIGHT M', 'height'],
    ['height_ft', 'heightFeet'], ['Height (ft)', 'heightFeet'], ['height feet', 'heightFeet'],
    ['Latitude', 'latitude'], ['lat', 'latitude'], ['Y', 'latitude'],
    ['Longitude', 'longitude'], ['lon', 'longitude'], ['lng', 'longitude'], ['long', 'longitude'], ['x', 'longitude'],
    ['Description', 'description'], ['desc', 'description'], ['Notes', 'description'],
    ['Group', 'group'],
    ['Pinstyle', 'pinStyle'], ['pin', 'pinStyle'], ['Colour', 'pinStyle'], ['color', 'pinStyle'], ['pin_style', 'pinStyle'],
  ])('maps %j to %s', (header, target) => {
    expect(targetForHeader(header)).toBe(target);
  });

  it('leaves ambiguous headers ("Site", "Tower") unmapped rather than guessing', () => {
    expect(targetForHeader('Site')).toBeNull();
    expect(targetForHeader('Tower')).toBeNull();
  });

  it('normalises headers: case, spaces, underscores, punctuation and accents', () => {
    expect(normalizeHeader('  Höhe (m)_ ')).toBe('hohem');
    expect(normalizeHeader('Site-ID')).toBe('siteid');
  });

  it('reads a target typed by a person: domain name, label, alias or "ignore"', () => {
    expect(parseTarget('heightFeet')).toBe('heightFeet');
    expect(parseTarget('Height (ft)')).toBe('heightFeet');
    expect(parseTarget('lat')).toBe('latitude');
    expect(parseTarget('skip')).toBe('ignore');
    expect(parseTarget('altitude')).toBeNull();
  });

  it('uses the leftmost of two columns for one field in a spreadsheet and says the other is ignored', () => {
    const result = resolveMapping(['lat', 'Latitude', 'lon']);
    expect(result.columns.map((c) => c.target)).toEqual(['latitude', null, 'longitude']);
    expect(result.columns[1]?.note).toMatch(/already gives Latitude/);
    expect(result.notes[0]).toMatch(/"lat" and "Latitude" both give Latitude/);
  });

  it('lets a manual mapping win over an automatic one for the same field', () => {
    const result = resolveMapping(['height', 'Height (ft)'], { 'Height (ft)': 'heightFeet' });
    expect(result.columns.map((c) => [c.target, c.source])).toEqual([
      [null, 'auto'],
      ['heightFeet', 'manual'],
    ]);
  });

  it('refers to a repeated header by position only', () => {
    expect(resolveMapping(['Notes', 'Notes'], { Notes: 'description' }).errors[0]).toMatch(/several columns are called "Notes"/);
    expect(resolveMapping(['Notes', 'Notes'], { '#2': 'description', '#1': 'ignore' }).columns.map((c) => c.target)).toEqual([null, 'description']);
  });

  it('parses --mapping specs, with \\, for a comma inside a column name', () => {
    expect(parseMappingSpec('Tower=name, Elev ft=heightFeet,Lat\\, deg=latitude')).toEqual({
      ok: true,
      mapping: { Tower: 'name', 'Elev ft': 'heightFeet', 'Lat, deg': 'latitude' },
    });
    expect(parseMappingSpec('Tower')).toMatchObject({ ok: false, message: expect.stringMatching(/not column=field/) });
  });

  it('converts feet to the nearest whole meter, halves away from zero', () => {
    expect(feetToMeters(100)).toBe(30);
    expect(feetToMeters(98.4)).toBe(30);
    expect(feetToMeters(4.9212)).toBe(1); // 1.49998 m
    expect(feetToMeters(4.9213)).toBe(2); // 1.50001 m
    expect(feetToMeters(0)).toBe(0);
  });
});
