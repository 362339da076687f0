// The bulk dialogs' tables: a data table that scrolls in its own box under one header row, and
// paging through thousands of rows a hundred at a time (only one page is ever in the DOM).
import { useState, type ReactNode } from 'react';

export const PAGE_SIZE = 100;

/** Paging state for a list: the page in view (kept in range as the list shrinks) and its slice. */
export function usePages<T>(items: readonly T[]): { page: number; pages: number; slice: readonly T[]; setPage: (page: number) => void } {
  const [wanted, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(wanted, pages - 1);
  return { page, pages, slice: items.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE), setPage };
}

/** "101–200 of 10,000" between previous and next buttons; nothing when everything fits on one page. */
export function Pager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <span className="pager">
      <button type="button" onClick={() => onPage(page - 1)} disabled={page === 0} aria-label="Previous rows">
        ‹
      </button>
      <span>
        {(page * PAGE_SIZE + 1).toLocaleString()}–{Math.min(total, page * PAGE_SIZE + PAGE_SIZE).toLocaleString()} of {total.toLocaleString()}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages - 1} aria-label="Next rows">
        ›
      </button>
    </span>
  );
}

/** A table that scrolls in its own box, with one header row of column names. */
export function DataTable({ className, head, children }: { className?: string; head: readonly string[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className={className ? `data-table ${className}` : 'data-table'}>
        <thead>
          <tr>
            {head.map((name, index) => (
              <th key={index} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
