// Bytes of an imported text file → text, the way office tools actually write them: UTF-8 with or
// without a BOM, UTF-16 with a BOM (Excel's "Unicode Text"), or Windows-1252 (Excel's plain
// "CSV" on Western Windows). Pure and browser-safe (TextDecoder only). Invariant: a file is never
// decoded silently in a way that could garble it — a fallback is reported as a note, and text that
// still looks wrong after the fallback, or a file that is not text at all, is refused with a
// sentence saying what to do.

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type DecodeResult =
  | {
    ok: true;
    text: string;
    encoding: TextEncodingName;
    /** A byte-order mark led the file (it is not part of the text). */
    bom: boolean;
    /** Sentences for the preview: how the file was read when that was not plain UTF-8. */
    notes: string[];
  }
  | { ok: false; message: string };

// Signatures of files that are often picked by mistake in an import dialog.
const BINARY_SIGNATURES: ReadonlyArray<{ bytes: number[]; message: string }> = [
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    message:
      'This is a compressed file (an Excel .xlsx, a Numbers or OpenDocument sheet, or a zip), not a text file. Save the sheet as CSV (comma- or semicolon-separated) and import that.',
  },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0],
    message: 'This is an old-style Excel workbook (.xls), not a text file. Save the sheet as CSV and import that.',
  },
  { bytes: [0x25, 0x50, 0x44, 0x46], message: 'This is a PDF, not a spreadsheet. Export the data as CSV and import that.' },
];

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  if (bytes.length < signature.length) return false;
  return signature.every((byte, index) => bytes[index] === byte);
}

/** Decodes an imported file. Never throws. */
export function decodeText(bytes: Uint8Array): DecodeResult {
  for (const signature of BINARY_SIGNATURES) {
    if (startsWith(bytes, signature.bytes)) return { ok: false, message: signature.message };
  }
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) {
    return strictUtf8(bytes.subarray(3), true);
  }
  if (startsWith(bytes, [0xff, 0xfe])) return utf16(bytes.subarray(2), 'utf-16le', true);
  if (startsWith(bytes, [0xfe, 0xff])) return utf16(bytes.subarray(2), 'utf-16be', true);

  const bomless16 = guessBomlessUtf16(bytes);
  if (bomless16) return utf16(bytes, bomless16, false);

  const utf8 = strictUtf8(bytes, false);
  if (utf8.ok) return utf8;

  return windows1252Fallback(decodeWindows1252(bytes), firstInvalidUtf8Offset(bytes));
}

/**
 * Text that is not valid UTF-8 read as Windows-1252, the usual reason being a Western Windows export.
 * Windows-1252 maps every byte to some character, so the check decides whether the result is
 * believable. `text` may be only the start of a file (the checks read its first 65,536 characters).
 */
export function windows1252Fallback(text: string, firstBad: number): DecodeResult {
  const trouble = implausibleText(text) ?? unlikelyWestern(text);
  if (trouble) {
    return {
      ok: false,
      message: `The file is not valid UTF-8, and read as Windows-1252 it still looks wrong (${trouble}). Save it again as "CSV UTF-8" and import that.`,
    };
  }
  return {
    ok: true,
    text,
    encoding: 'windows-1252',
    bom: false,
    notes: [
      `The file is not UTF-8 (first unreadable byte at offset ${firstBad}), so it was read as Windows-1252, the encoding of Excel's plain "CSV" on Western Windows. Check accented names in the preview; if they look wrong, save the file as "CSV UTF-8" and import it again.`,
    ],
  };
}

export const brokenUtf8WithBomSentence = (offset: number) =>
  `The file starts with a UTF-8 marker but is not valid UTF-8 (first unreadable byte at offset ${offset}). Save it again as "CSV UTF-8" and import that.`;

export const brokenUtf16Sentence = (encoding: 'utf-16le' | 'utf-16be') =>
  `The file looks like ${encoding.toUpperCase()} text but contains broken characters. Export it again as "CSV UTF-8".`;

export const oddUtf16Sentence = (encoding: 'utf-16le' | 'utf-16be') =>
  `The file looks like ${encoding.toUpperCase()} text but has an odd number of bytes: it is probably cut short. Export it again.`;

function strictUtf8(bytes: Uint8Array, bom: boolean): DecodeResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    if (!bom) return { ok: false, message: 'not utf-8' };
    return { ok: false, message: brokenUtf8WithBomSentence(firstInvalidUtf8Offset(bytes) + 3) };
  }
  const trouble = implausibleText(text);
  if (trouble) return { ok: false, message: `The file does not look like text (${trouble}). Choose a CSV, KML, KMZ or GeoJSON file.` };
  const notes: string[] = [];
  const mojibake = doubleEncodedNote(text);
  if (mojibake) notes.push(mojibake);
  return { ok: true, text, encoding: 'utf-8', bom, notes };
}

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', bom: boolean): DecodeResult {
  if (bytes.length % 2 !== 0) {
    return { ok: false, message: oddUtf16Sentence(encoding) };
  }
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, message: brokenUtf16Sentence(encoding) };
  }
  const trouble = implausibleText(text);
  if (trouble) return { ok: false, message: `The file does not look like text (${trouble}). Choose a CSV, KML, KMZ or GeoJSON file.` };
  return {
    ok: true,
    text,
    encoding,
    bom,
    notes: [`The file is ${encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16 (big-endian)'} text, as Excel's "Unicode Text" export writes it; it was read as such.`],
  };
}

/**
 * UTF-16 without a BOM shows as ASCII with a zero byte beside every character. Looks only at the
 * first 512 bytes: a text file in any 8-bit encoding has no zero bytes at all.
 */
export function guessBomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const sample = bytes.subarray(0, Math.min(bytes.length, 512) & ~1);
  if (sample.length < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) zeroEven++;
      else zeroOdd++;
    }
  }
  const pairs = sample.length / 2;
  if (zeroOdd >= pairs * 0.6 && zeroEven === 0) return 'utf-16le';
  if (zeroEven >= pairs * 0.6 && zeroOdd === 0) return 'utf-16be';
  return null;
}

// Windows-1252's 0x80–0x9F row (WHATWG table; the five undefined bytes map to the C1 controls, as
// browsers do). Decoded by hand because Node 20's TextDecoder('windows-1252') is really ISO-8859-1
// and turns "€" (0x80) or "–" (0x96) into invisible controls.
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Windows-1252 bytes → text. Every byte maps to one character. */
export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    const codes = new Array<number>(end - start);
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      codes[i - start] = b >= 0x80 && b <= 0x9f ? WINDOWS_1252_HIGH[b - 0x80]! : b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** Offset of the first byte that makes the data invalid UTF-8 (for a message a support engineer can use). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/**
 * Why a decoded text is not believable as a spreadsheet or map file, or null when it is. Signs:
 * zero bytes, many control characters, or (after a Windows-1252 fallback) the five bytes that
 * encoding leaves undefined, which no Western text contains.
 */
function implausibleText(text: string): string | null {
  if (text.length === 0) return null;
  let controls = 0;
  let undefined1252 = 0;
  let nul = 0;
  const limit = Math.min(text.length, 65_536);
  for (let i = 0; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) nul++;
    else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) controls++;
    else if (c === 0x81 || c === 0x8d || c === 0x8f || c === 0x90 || c === 0x9d) undefined1252++;
    else if (c >= 0x80 && c <= 0x9f) controls++;
  }
  if (nul > 0) return `${nul} zero byte${nul === 1 ? '' : 's'}`;
  if (undefined1252 > 0) return `${undefined1252} byte${undefined1252 === 1 ? '' : 's'} that Windows-1252 does not define`;
  if (controls > Math.max(2, limit / 100)) return `${controls} control characters`;
  return null;
}

/**
 * After a Windows-1252 fallback: Western text is mostly ASCII with a few accented letters. When a
 * fifth or more of the visible characters are non-ASCII, the file is in another encoding (Cyrillic,
 * Central European, Japanese…) and reading it as 1252 would garble every name.
 */
function unlikelyWestern(text: string): string | null {
  let visible = 0;
  let high = 0;
  const limit = Math.min(text.length, 65_536);
  for (let i = 0; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue;
    visible++;
    if (c >= 0x80) high++;
  }
  if (high >= 20 && high > visible / 5) return `${Math.round((high / visible) * 100)}% of its characters are unusual symbols`;
  return null;
}

// UTF-8 bytes of an accented Latin letter read as Windows-1252 and saved as UTF-8 again: "Ã©" for
// "é", "Ã¼" for "ü", "â€™" for "’". Two-character sequences are checked, never a lone "Ã".
const DOUBLE_ENCODED = /[ÂÃ][\u00a0-\u00bf]|â€[\u0080-\u00ff\u2010-\u203a\u20ac\u2122]/;

/** The note for text that looks converted twice, or null. */
export function doubleEncodedNote(text: string): string | null {
  const match = DOUBLE_ENCODED.exec(text);
  if (!match) return null;
  return `Some text looks converted twice ("${match[0]}" usually stands for an accented letter). The file was probably saved as UTF-8 after being read with the wrong encoding; check names in the preview.`;
}
