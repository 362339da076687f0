// The site create/edit rules, one by one, as the form, the CSV import and the CLI see them.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../electron/core/clock';
import { TEXT_LIMITS, formatCoordinate, parseSiteEdit, roundCoordinate, type SiteEditInput } from '../../electron/shared/validation';

const place = { latitude: '45.5', longitude: '-93.25' };

function issuesOf(input: SiteEditInput) {
  const result = parseSiteEdit(input);
  if (result.ok) throw new Error(`expected issues, got ${JSON.stringify(result.value)}`);
  return result.issues;
}

function valueOf(input: SiteEditInput) {
  const result = parseSiteEdit(input);
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe('height', () => {
  it.each([['30', 30], [' 30 ', 30], [30, 30], ['0', 0], ['030', 30], [1000, 1000]])('accepts %j as %d meters', (height, meters) => {
    expect(valueOf({ ...place, height }).height).toBe(meters);
  });

  it.each(['30.5', '30m', '3e1', '0x1E', '+30', '٣٠', 30.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects %j as not a number of meters', (height) => {
    expect(issuesOf({ ...place, height })).toEqual([{ field: 'height', message: 'Height must be a number of meters, like 30, or of feet, like 98 ft.' }]);
  });

  it('rejects a negative height saying so', () => {
    expect(issuesOf({ ...place, height: '-5' })[0]?.message).toMatch(/cannot be negative/);
    expect(issuesOf({ ...place, height: -5 })[0]?.message).toMatch(/cannot be negative/);
  });

  it('rejects a blank height as required', () => {
    expect(issuesOf({ ...place, height: '  ' })).toEqual([{ field: 'height', message: 'Height is required: enter the tower height in meters, like 30, or in feet, like 98 ft.' }]);
    expect(issuesOf({ ...place })[0]?.field).toBe('height');
  });

  it('rejects an absurd height over 1000 m, hinting at feet', () => {
    expect(issuesOf({ ...place, height: '1500' })[0]?.message).toBe(
      'Height of 1500 m is more than 1000 m; enter the tower height in meters (not feet or centimeters), like 30.',
    );
  });
});

describe('coordinates', () => {
  it('requires both for a new site', () => {
    expect(issuesOf({ height: 10 }).map((issue) => issue.field)).toEqual(['latitude', 'longitude']);
    expect(issuesOf({ height: 10, latitude: 1 })).toEqual([{ field: 'longitude', message: 'A new site needs a longitude, like -93.123456.' }]);
  });

  it('takes both or neither for an edit', () => {
    expect(valueOf({ siteId: '12', height: 10 })).toEqual({ siteId: '12', height: 10 });
    expect(issuesOf({ siteId: '12', height: 10, latitude: '45' })).toEqual([
      { field: 'longitude', message: 'Give both latitude and longitude to move the site, or leave both blank to keep its position.' },
    ]);
  });

  it('accepts plain decimals with a point, signs and surrounding spaces', () => {
    expect(valueOf({ height: 1, latitude: ' -33.8688 ', longitude: '+151.2093' })).toMatchObject({ latitude: -33.8688, longitude: 151.2093 });
    expect(valueOf({ height: 1, latitude: '.5', longitude: '7.' })).toMatchObject({ latitude: 0.5, longitude: 7 });
  });

  it('rounds to 7 decimals instead of rejecting more', () => {
    expect(valueOf({ height: 1, latitude: '45.123456789', longitude: -93.00000004 })).toMatchObject({ latitude: 45.1234568, longitude: -93 });
  });

  it.each(['1e5', '4.5E1', 'NaN', 'Infinity', '-Infinity', '0x10', '45°', 'north', '1.2.3'])('rejects %j as not a decimal number', (latitude) => {
    expect(issuesOf({ height: 1, latitude, longitude: 0 })).toEqual([{ field: 'latitude', message: 'Latitude must be a number in decimal degrees, like 45.123456.' }]);
  });

  it('points out a decimal comma', () => {
    expect(issuesOf({ height: 1, latitude: '45,5', longitude: 0 })[0]?.message).toBe('Latitude must use a point for decimals, like 45.123456 (not a comma).');
  });

  it('rejects out-of-range latitude and longitude, naming the limits', () => {
    expect(issuesOf({ height: 1, latitude: 90.5, longitude: -180.1 })).toEqual([
      { field: 'latitude', message: 'Latitude must be between -90 and 90 degrees; 90.5 is outside.' },
      { field: 'longitude', message: 'Longitude must be between -180 and 180 degrees; -180.1 is outside.' },
    ]);
    expect(valueOf({ height: 1, latitude: -90, longitude: 180 })).toMatchObject({ latitude: -90, longitude: 180 });
  });

  it('rounds every coordinate to the number its 7-decimal text reads as, short or long, ties, -0 and extremes included', () => {
    const random = seededRandom(11);
    const values = [0, -0, 1e-7, -5e-8, 5e-8, 0.00000005, 45.00000005, -93.00000015, 0.1 + 0.2, 1e21, -1e300, 5e-324, Infinity, -Infinity];
    for (let n = 0; n < 200_000; n++) {
      const decimals = Math.floor(random() * 16);
      values.push(Number(((random() - 0.5) * 360).toFixed(decimals)));
      values.push((random() - 0.5) * 10 ** Math.floor(random() * 12));
    }
    const byText = (n: number) => {
      const rounded = Number(n.toFixed(7));
      return Object.is(rounded, -0) ? 0 : rounded;
    };
    const wrong = values.filter((n) => !Object.is(roundCoordinate(n), byText(n)));
    expect(wrong).toEqual([]);
    expect(Object.is(roundCoordinate(-0), 0)).toBe(true);
    expect(roundCoordinate(NaN)).toBeNaN();
  });

  it('formats coordinates in plain decimal without exponent or trailing zeros', () => {
    expect([1e-7, 45.5, -0.00000001, 123.4567891234, 0.1 + 0.2, -180, 0, 2e-8].map(formatCoordinate)).toEqual([
      '0.0000001', '45.5', '0', '123.4567891', '0.3', '-180', '0', '0',
    ]);
  });
});

describe('pin style', () => {
  it.each([[1, 1], ['2', 2], [' 3 ', 3], ['green', 4], ['Red', 1]])('accepts %j as pin style %d', (pinStyle, value) => {
    expect(valueOf({ ...place, height: 1, pinStyle }).pinStyle).toBe(value);
  });

  it.each(['', '  ', null, undefined])('leaves a blank (%j) unset so the service applies its default', (pinStyle) => {
    expect(valueOf({ ...place, height: 1, pinStyle })).not.toHaveProperty('pinStyle');
  });

  it.each([0, 5, '1.5', 'purple'])('rejects %j', (pinStyle) => {
    expect(issuesOf({ ...place, height: 1, pinStyle })[0]).toEqual({
      field: 'pinStyle',
      message: 'Pin style must be 1 (red), 2 (blue), 3 (orange) or 4 (green), or blank for the default (red).',
    });
  });
});

describe('text fields', () => {
  it('trims text and treats blank as "leave unchanged"', () => {
    expect(valueOf({ siteId: ' 12 ', height: 1, name: '  North Ridge ', group: '   ', description: '\n' })).toEqual({ siteId: '12', height: 1, name: 'North Ridge' });
  });

  it('keeps every printable character, emoji and line breaks inside a description', () => {
    const description = 'Line "1" & <2>\r\nLine 2: 北塔 🗼 — ok\ttab';
    expect(valueOf({ ...place, height: 1, name: 'O\'Brien & Sons 🙂', description })).toMatchObject({ name: 'O\'Brien & Sons 🙂', description });
  });

  it('keeps names and groups on one line', () => {
    expect(issuesOf({ ...place, height: 1, name: 'two\nlines' })).toEqual([{ field: 'name', message: 'Site name must be on one line.' }]);
  });

  it.each([
    ['a control character', 'bad\u0001name', /invisible control character \(U\+0001\) at position 4/],
    ['an escape character', '\u001B[31m', /U\+001B/],
    ['a lone surrogate', 'x\uD83Dy', /unpaired surrogate U\+D83D/],
    ['a non-character', 'x\uFFFE', /non-character U\+FFFE/],
  ])('rejects %s, which XML cannot carry', (_label, name, message) => {
    const [issue] = issuesOf({ ...place, height: 1, name });
    expect(issue?.field).toBe('name');
    expect(issue?.message).toMatch(message);
  });

  it('counts characters as a person does and names the limit when it is exceeded', () => {
    expect(valueOf({ ...place, height: 1, name: '🗼'.repeat(TEXT_LIMITS.name) }).name).toHaveLength(TEXT_LIMITS.name * 2);
    expect(issuesOf({ ...place, height: 1, name: 'x'.repeat(201) })).toEqual([{ field: 'name', message: 'Site name is 201 characters long; the limit is 200.' }]);
    expect(issuesOf({ ...place, height: 1, description: 'x'.repeat(2001) })[0]?.message).toBe('Description is 2001 characters long; the limit is 2000.');
    expect(issuesOf({ ...place, height: 1, group: 'g'.repeat(101) })[0]?.field).toBe('group');
  });

  it('reports every problem of a row at once', () => {
    expect(issuesOf({ height: 'x', name: 'a\u0000', pinStyle: 9 }).map((issue) => issue.field)).toEqual(['name', 'height', 'pinStyle', 'latitude', 'longitude']);
  });

  it('refuses input that is not an object with a sentence, not an exception', () => {
    expect(parseSiteEdit(null as unknown as SiteEditInput)).toEqual({ ok: false, issues: [{ field: '', message: 'The input is not valid.' }] });
  });
});
