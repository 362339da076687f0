// Where a key press moves the active cell of a grid (the WAI-ARIA grid pattern's keys), as plain
// data, for lists too long to render whole: Up/Down one row, PgUp/PgDn a page, Home/End the first
// and last row (Ctrl+Home/End too), Left/Right between the columns of a row.

export interface Cell {
  row: number;
  column: number;
}

export interface GridShape {
  rows: number;
  columns: number;
  /** Rows one PgUp/PgDn moves (what fits in view, less one kept for context). */
  pageRows: number;
  ctrl: boolean;
}

/** The cell `key` moves to from `from`, or null when the key is not the grid's (or moves nothing). */
export function nextCell(key: string, from: Cell, shape: GridShape): Cell | null {
  if (shape.rows === 0) return null;
  const lastRow = shape.rows - 1;
  const row = (r: number): Cell => ({ row: Math.max(0, Math.min(lastRow, r)), column: from.column });
  switch (key) {
    case 'ArrowDown':
      return row(from.row + 1);
    case 'ArrowUp':
      return row(from.row - 1);
    case 'PageDown':
      return row(from.row + shape.pageRows);
    case 'PageUp':
      return row(from.row - shape.pageRows);
    case 'Home':
      return row(0);
    case 'End':
      return row(lastRow);
    case 'ArrowRight':
      return { row: from.row, column: Math.min(shape.columns - 1, from.column + 1) };
    case 'ArrowLeft':
      return { row: from.row, column: Math.max(0, from.column - 1) };
    default:
      return null;
  }
}
