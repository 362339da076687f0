// A preview's rows kept where the preview was made, packed: each row's JSON in one byte buffer (with
// its offsets) and a byte of filter bits per row. Packing runs in the preview's worker, and the three
// buffers are transferred, not copied; the host then decodes only the rows a page asks for, or all of
// them in small pieces (yielding between) when a run needs them, so no request blocks the process.
import { filterBits, PREVIEW_PAGE_ROWS, ROW_FILTERS, type ImportPreviewView, type PreviewRowsPage, type RowFilter } from '../../shared/bulk/preview-page';
import type { ImportPreview, PreviewRow } from '../../shared/bulk/preview';
import { yieldToLoop } from '../../shared/bulk/limits';

export interface PackedPreview {
  /** The preview without its rows, as JSON. */
  head: Uint8Array;
  /** Every row's JSON, one after the other, in blocks of about BLOCK_BYTES (a row never spans two). */
  blocks: Uint8Array[];
  /** Row i is blocks[block[i]] from start[i] to start[i + 1] (or the block's end for its last row). */
  block: Uint32Array;
  start: Uint32Array;
  /** filterBits of each row. */
  bits: Uint8Array;
}

/** Rows decoded between two turns of the event loop when all of them are wanted. */
const PIECE_ROWS = 2000;
/** Blocks, not one buffer: packing never holds the rows' JSON twice (pieces and their copy). */
const BLOCK_BYTES = 4 * 1024 * 1024;

export function packPreview(preview: ImportPreview): PackedPreview {
  const encoder = new TextEncoder();
  const count = preview.rows.length;
  const block = new Uint32Array(count);
  const start = new Uint32Array(count);
  const bits = new Uint8Array(count);
  const blocks: Uint8Array[] = [];
  let current = new Uint8Array(0);
  let used = 0;
  const seal = () => {
    // The block itself, not a copy: a copy per block would leave a block of garbage behind each.
    if (used > 0) blocks.push(current.subarray(0, used));
    used = 0;
  };
  preview.rows.forEach((row, index) => {
    const json = JSON.stringify(row);
    // At most 3 bytes of UTF-8 per UTF-16 unit.
    const room = json.length * 3;
    if (used + room > current.length) {
      seal();
      current = new Uint8Array(Math.max(BLOCK_BYTES, room));
    }
    block[index] = blocks.length;
    start[index] = used;
    used += encoder.encodeInto(json, current.subarray(used)).written;
    bits[index] = filterBits(row);
  });
  seal();
  const { rows: _rows, ...head } = preview;
  return { head: encoder.encode(JSON.stringify(head)), blocks, block, start, bits };
}

/** The buffers a worker hands over without copying them. */
export function transferList(packed: PackedPreview): ArrayBuffer[] {
  return [packed.head, ...packed.blocks, packed.block, packed.start, packed.bits].map((view) => view.buffer as ArrayBuffer);
}

export class KeptPreview {
  private readonly head: Omit<ImportPreview, 'rows'>;
  private readonly decoder = new TextDecoder();

  constructor(private readonly packed: PackedPreview) {
    this.head = JSON.parse(this.decoder.decode(packed.head)) as Omit<ImportPreview, 'rows'>;
  }

  get rowCount(): number {
    return this.packed.bits.length;
  }

  private row(index: number): PreviewRow {
    const { blocks, block, start } = this.packed;
    const which = block[index]!;
    const end = index + 1 < block.length && block[index + 1] === which ? start[index + 1]! : blocks[which]!.length;
    return JSON.parse(this.decoder.decode(blocks[which]!.subarray(start[index]!, end))) as PreviewRow;
  }

  /** The page's answer: the findings, the counts and the first page (of the invalid rows when there are any). */
  view(): ImportPreviewView {
    const rowCounts = Object.fromEntries(ROW_FILTERS.map((filter) => [filter, 0])) as Record<RowFilter, number>;
    for (const bits of this.packed.bits) ROW_FILTERS.forEach((filter, index) => (rowCounts[filter] += (bits >> index) & 1));
    return { ...this.head, rowCounts, firstPage: this.page(rowCounts.invalid > 0 ? 'invalid' : 'all', 0) };
  }

  /** Up to `limit` rows that `filter` shows, from the `offset`-th of them on. */
  page(filter: RowFilter, offset: number, limit = PREVIEW_PAGE_ROWS): PreviewRowsPage {
    const bit = 1 << ROW_FILTERS.indexOf(filter);
    const rows: PreviewRow[] = [];
    let seen = 0;
    this.packed.bits.forEach((bits, index) => {
      if ((bits & bit) === 0) return;
      if (seen >= offset && rows.length < limit) rows.push(this.row(index));
      seen++;
    });
    return { filter, offset, total: seen, rows };
  }

  /** The whole preview, its rows decoded a piece at a time so the process keeps answering meanwhile. */
  async whole(): Promise<ImportPreview> {
    const rows: PreviewRow[] = [];
    for (let index = 0; index < this.rowCount; index++) {
      if (index > 0 && index % PIECE_ROWS === 0) await yieldToLoop();
      rows.push(this.row(index));
    }
    return { ...this.head, rows };
  }
}
