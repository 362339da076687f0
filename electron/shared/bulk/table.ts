// The one shape every import format is turned into before mapping: named columns and rows of text
// cells, each row keeping the number a person sees (spreadsheet row, or placemark/feature number).
// CSV, KML/KMZ and GeoJSON readers produce it; the preview maps and validates it. Plain data only,
// so a table can be built in a Web Worker and posted back.

export type ImportFormat = 'csv' | 'kml' | 'kmz' | 'geojson';

export interface TableRow {
  /** What a person looks for: the spreadsheet row (header = its own row), or the placemark/feature number. */
  row: number;
  /**
   * Cells in column order, never padded to the columns: a cell a row lacks (past its end, or a hole
   * where a feature has no such property) is read as '' (`cells[i] ?? ''`), so a wide table costs
   * what its text costs.
   */
  cells: string[];
  /** A short name to show beside the number (a placemark's name). */
  label?: string;
  /** Present when the row cannot become a site at all (a line or polygon placemark): the reason. */
  skip?: string;
  /** Structural problems found while reading the row (extra cells, a broken quote); each blocks the row. */
  problems?: string[];
}

export interface ImportTable {
  format: ImportFormat;
  /** Column names as written in the file (trimmed). */
  columns: string[];
  rows: TableRow[];
  /** Decimal commas ("40,4461") are read as decimal points: true when the separator cannot be a comma. */
  decimalComma: boolean;
  /** Sentences about how the file was read (encoding fallback, separator, rows above the header…). */
  notes: string[];
  /** File-level problems: when any is present nothing from the file may be applied. */
  problems: string[];
  /** Format details for the preview: encoding, separator. */
  details: Record<string, string>;
}

/** How a number found in structured data (GeoJSON, KML) is written as a cell: never with an exponent. */
export function numberToCell(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  if (Math.abs(value) >= 1e21) return text;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/** A property value of structured data as a cell: text as is, numbers without exponents, booleans as words. */
export function valueToCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberToCell(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object' && value !== null && 'value' in value && typeof (value as { value: unknown }).value === 'string') {
    // togeojson's HTML description: { "@type": "html", value }.
    return htmlToText((value as { value: string }).value);
  }
  return JSON.stringify(value);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Rich descriptions (Google Earth balloons) as plain text: line breaks kept, tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|tr|h[1-6])\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
