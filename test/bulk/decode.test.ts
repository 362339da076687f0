import { describe, expect, it } from 'vitest';
import { decodeText, decodeWindows1252, firstInvalidUtf8Offset } from '../../electron/shared/bulk/decode';

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('reading the bytes of an imported file', () => {
  it('drops a UTF-8 byte-order mark and says it was there', () => {
    const result = decodeText(bytes(0xef, 0xbb, 0xbf, ...utf8('Caf\u00e9')));
    expect(result).toMatchObject({ ok: true, text: 'Caf\u00e9', encoding: 'utf-8', bom: true, notes: [] });
  });

  it('reads UTF-8 without a mark as UTF-8, with no note', () => {
    expect(decodeText(utf8('Z\u00fcrich \u65e5\u672c'))).toMatchObject({ ok: true, text: 'Z\u00fcrich \u65e5\u672c', bom: false, notes: [] });
  });

  it('falls back to Windows-1252 for Excel\'s plain CSV and says so, with the euro sign and dashes right', () => {
    const result = decodeText(bytes(0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x20, 0x96, 0x20, 0x93, 0x71, 0x94));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.encoding).toBe('windows-1252');
    expect(result.text).toBe('Caf\u00e9 \u20ac \u2013 \u201cq\u201d');
    expect(result.notes.join(' ')).toMatch(/not UTF-8.*offset 3.*Windows-1252/);
  });

  it('refuses bytes that Windows-1252 does not define instead of garbling names', () => {
    const result = decodeText(bytes(0x41, 0x81, 0x8d, 0x42));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/still looks wrong.*CSV UTF-8/);
  });

  it('refuses a file in another 8-bit encoding whose text would be mostly symbols', () => {
    // Cyrillic in Windows-1251: read as 1252 it is a soup of accented capitals.
    const cyrillic = new Uint8Array(60).map((_, index) => 0xc0 + (index % 32));
    const result = decodeText(cyrillic);
    expect(result.ok).toBe(false);
  });

  it('reads Excel\'s "Unicode Text" (UTF-16LE with a mark) and big-endian UTF-16', () => {
    const le = new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0xe9, 0x00]);
    expect(decodeText(le)).toMatchObject({ ok: true, text: 'A\u00e9', encoding: 'utf-16le', bom: true });
    const be = new Uint8Array([0xfe, 0xff, 0x00, 0x41, 0x00, 0xe9]);
    expect(decodeText(be)).toMatchObject({ ok: true, text: 'A\u00e9', encoding: 'utf-16be', bom: true });
  });

  it('recognises UTF-16 without a mark by its zero bytes', () => {
    const text = 'Siteid\tSitename\theight\r\n';
    const le = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) le[i * 2] = text.charCodeAt(i);
    expect(decodeText(le)).toMatchObject({ ok: true, text, encoding: 'utf-16le', bom: false });
  });

  it('tells a workbook, an old .xls or a PDF from a text file and says what to do', () => {
    expect(decodeText(bytes(0x50, 0x4b, 0x03, 0x04, 0x14))).toMatchObject({ ok: false, message: expect.stringMatching(/Excel .xlsx.*Save the sheet as CSV/) });
    expect(decodeText(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1))).toMatchObject({ ok: false, message: expect.stringMatching(/\.xls/) });
    expect(decodeText(utf8('%PDF-1.7'))).toMatchObject({ ok: false, message: expect.stringMatching(/PDF/) });
  });

  it('refuses a binary file with zero bytes', () => {
    expect(decodeText(bytes(0x41, 0x00, 0x00, 0x00, 0x42, 0x43, 0x44, 0x45))).toMatchObject({ ok: false });
  });

  it('notes text that was converted to UTF-8 twice ("Ã©" for "é")', () => {
    const result = decodeText(utf8('Caf\u00c3\u00a9 Ridge'));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.notes.join(' ')).toMatch(/converted twice/);
  });

  it('locates the first byte that breaks UTF-8', () => {
    expect(firstInvalidUtf8Offset(utf8('abc\u00e9'))).toBe(5);
    expect(firstInvalidUtf8Offset(bytes(0x61, 0xe9, 0x62))).toBe(1);
    expect(firstInvalidUtf8Offset(bytes(0x61, 0xc0, 0x80))).toBe(1); // overlong
    expect(firstInvalidUtf8Offset(bytes(0xed, 0xa0, 0x80))).toBe(0); // surrogate
  });

  it('maps all 256 Windows-1252 bytes to one character each', () => {
    const all = new Uint8Array(256).map((_, index) => index);
    const text = decodeWindows1252(all);
    expect(text.length).toBe(256);
    expect(text.charCodeAt(0x41)).toBe(0x41);
    expect(text.charCodeAt(0x80)).toBe(0x20ac);
    expect(text.charCodeAt(0x9f)).toBe(0x178);
    expect(text.charCodeAt(0xff)).toBe(0xff);
  });
});
