// Heights in the site form: crews measure in feet or meters, the service stores whole meters. Feet
// must convert to the nearest whole meter, meters must reach the shared schema as typed (so "30.5"
// is refused with its sentence), and showing a height both ways must not drift when read back.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { convertHeightText, feetToMeters, formatHeight, heightFieldText, metersToFeet, readHeight } from '../../renderer/src/shared/units';
import { parseSiteEdit } from '../../electron/shared/validation';

describe('feet and meters', () => {
  it('converts feet to the nearest whole meter', () => {
    expect(feetToMeters(98)).toBe(30);
    expect(feetToMeters(100)).toBe(30);
    expect(feetToMeters(328)).toBe(100);
    expect(feetToMeters(0)).toBe(0);
    expect(feetToMeters(1.64)).toBe(0); // 0.4999 m
    expect(feetToMeters(1.65)).toBe(1); // 0.5029 m
  });

  it('shows a height both ways, the chosen unit first', () => {
    expect(formatHeight(30, 'm')).toBe('30 m (98 ft)');
    expect(formatHeight(30, 'ft')).toBe('98 ft (30 m)');
    expect(formatHeight(null, 'm')).toBe('—');
  });

  it('reads back the same whole meters after showing a height in feet', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (meters) => {
        const shown = heightFieldText(meters, 'ft');
        expect(Number(shown)).toBe(metersToFeet(meters));
        expect(readHeight(shown, 'ft').meters).toBe(meters);
      }),
    );
  });
});

describe('reading the height field', () => {
  it('takes a bare number in the chosen unit', () => {
    expect(readHeight('30', 'm')).toMatchObject({ schemaInput: '30', meters: 30, feet: null, message: null });
    expect(readHeight('98', 'ft')).toMatchObject({ schemaInput: '30', meters: 30, feet: 98, message: null });
  });

  it('lets a typed unit override the chosen one', () => {
    expect(readHeight('98 ft', 'm')).toMatchObject({ meters: 30, feet: 98 });
    expect(readHeight("98'", 'm')).toMatchObject({ meters: 30, feet: 98 });
    expect(readHeight('98 feet', 'm')).toMatchObject({ meters: 30 });
    expect(readHeight('30 m', 'ft')).toMatchObject({ schemaInput: '30', meters: 30, feet: null });
    expect(readHeight('30meters', 'ft')).toMatchObject({ meters: 30 });
  });

  it('accepts decimal feet, since they become whole meters anyway', () => {
    expect(readHeight('98.5 ft', 'm')).toMatchObject({ schemaInput: '30', meters: 30, feet: 98.5 });
  });

  // One reader for the form, the import and the CLI (issue 23): "15.8 m" is a height, rounded to the
  // whole meters the service stores, and the reading says it was rounded.
  it('rounds meters written with their unit and decimals, and says so; sends a bare 30.5 to the schema as typed', () => {
    expect(readHeight('15.8 m', 'm')).toMatchObject({ schemaInput: '16', meters: 16, roundedFrom: 15.8 });
    expect(readHeight('15,8 m', 'ft')).toMatchObject({ schemaInput: '16', meters: 16, roundedFrom: 15.8 });
    expect(readHeight('30.0', 'm')).toMatchObject({ schemaInput: '30', meters: 30 });
    const reading = readHeight('30.5', 'm');
    expect(reading.schemaInput).toBe('30.5');
    expect(reading.meters).toBeNull();
    const result = parseSiteEdit({ height: reading.schemaInput, latitude: '45', longitude: '-93' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.message).toMatch(/whole number of meters/);
  });

  it('gives its own sentence for feet the schema never sees', () => {
    expect(readHeight('abc ft', 'm').message).toMatch(/Height in feet must be a number/);
    expect(readHeight('98,5', 'ft')).toMatchObject({ meters: 30, feet: 98.5, message: null });
    expect(readHeight('-10 ft', 'm').message).toMatch(/cannot be negative/);
  });

  it('leaves a blank height blank (the schema says it is required)', () => {
    expect(readHeight('  ', 'ft')).toEqual({ schemaInput: '', meters: null, feet: null, roundedFrom: null, message: null });
  });

  it('lets the schema catch a height that is far too tall once converted', () => {
    const reading = readHeight('4000 ft', 'm');
    expect(reading.meters).toBe(1219);
    const result = parseSiteEdit({ height: reading.schemaInput, latitude: '45', longitude: '-93' });
    expect(result.ok).toBe(false);
  });
});

describe('the m/ft toggle converts the height shown', () => {
  it('writes the same height in the other unit instead of re-reading the digits', () => {
    expect(convertHeightText('30', 'm', 'ft')).toBe('98.4');
    expect(convertHeightText('100', 'ft', 'm')).toBe('30');
    expect(convertHeightText('98 ft', 'm', 'm')).toBe('98 ft');
    expect(convertHeightText('98 ft', 'ft', 'm')).toBe('30');
    expect(convertHeightText('30 m', 'ft', 'ft')).toBe('30 m');
    expect(convertHeightText('30 m', 'm', 'ft')).toBe('98.4');
    expect(convertHeightText('', 'm', 'ft')).toBe('');
    expect(convertHeightText('tall', 'm', 'ft')).toBe('tall');
  });

  it('keeps whole meters through any number of toggles', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 6 }), (meters, toggles) => {
        let text = String(meters);
        let unit: 'm' | 'ft' = 'm';
        for (let i = 0; i < toggles; i++) {
          const next: 'm' | 'ft' = unit === 'm' ? 'ft' : 'm';
          text = convertHeightText(text, unit, next);
          unit = next;
        }
        expect(readHeight(text, unit).meters).toBe(meters);
      }),
    );
  });
});
