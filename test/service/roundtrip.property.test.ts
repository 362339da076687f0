// Property: any text a user can type reaches the service unchanged, through each of the four
// bindings. Random Unicode (all planes, quotes, ampersands, plus signs, markup, line breaks in the
// description), minus what XML 1.0 cannot carry, is saved as a new site and read back from the
// sandbox's inspection endpoint. What arrives must equal what validation produced (trimmed text).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox, SandboxSite } from '../../electron/sandbox/index';
import { BINDINGS } from '../../electron/core/service/types';
import { isXmlSafe, parseSiteEdit } from '../../electron/shared/validation';
import { clientFor, inspect, startTestSandbox } from './helpers/sandbox';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

// Whole code points (surrogate pairs intact), ASCII made likely so &, <, +, %, = and quotes
// show up often, and the characters that matter to encoders added on purpose.
const tricky = fc.constantFrom('&', '<', '>', '"', "'", '+', '%', '=', '?', '#', ';', '\\', ' ', '\t', '\u00A0', '\u2028', '\uFEFF', '🗼', '北', 'é', ']]>', '&amp;', '%20');
const typedChar = fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), tricky);
const text = (maxLength: number) => fc.array(typedChar, { maxLength }).map((parts) => parts.join('')).filter(isXmlSafe);
const oneLine = (maxLength: number) => text(maxLength).map((value) => value.replace(/[\r\n]/g, ' ')).filter((value) => value.trim() !== '');
const multiLine = (maxLength: number) => fc.array(fc.oneof(typedChar, fc.constantFrom('\n', '\r\n', '\r')), { maxLength }).map((parts) => parts.join('')).filter(isXmlSafe);

describe.each(BINDINGS)('text typed by a user, over %s', (binding) => {
  it('reaches the service unchanged (name, description, group)', async () => {
    const client = clientFor(sandbox, binding);
    await fc.assert(
      fc.asyncProperty(oneLine(60), multiLine(120), text(40).map((value) => value.replace(/[\r\n]/g, ' ')), async (name, description, group) => {
        const checked = parseSiteEdit({ name, description, group, height: 12, latitude: '44.5', longitude: '-93.25' });
        if (!checked.ok) throw new Error(`validation refused generated input: ${JSON.stringify(checked.issues)}`);
        const saved = await client.saveSite(checked.value);
        if (!saved.ok) throw new Error(`${saved.error.kind}: ${saved.error.message}\n${saved.error.detail}`);
        const site = await inspect<SandboxSite>(sandbox, `sites/${saved.value.siteId}`);
        expect(site.name).toBe(checked.value.name);
        expect(site.description).toBe(checked.value.description ?? '');
        expect(site.group).toBe(checked.value.group ?? '');
      }),
      { numRuns: 50 },
    );
  }, 120_000);
});
