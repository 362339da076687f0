// Pieces both bulk dialogs use: handing a chosen file to the host, the file picker (which also takes
// a dropped file), paging through thousands of rows a hundred at a time, and finding a run that is
// still going when a dialog is opened again.
import { useId, useState, type ReactNode } from 'react';
import type { BulkFileView, BulkRunView } from '../../../../electron/shared/contract/index';
import { readFileAsBase64 } from '../../lib/files';
import type { Ui } from '../ui';
import { RunView } from './RunView';

export const PAGE_SIZE = 100;

/** Reads the chosen file and hands it to the host; a refusal or a read failure comes back as a sentence. */
export async function openBulkFile(ui: Ui, chosen: File): Promise<{ ok: true; file: BulkFileView } | { ok: false; message: string } | null> {
  try {
    const base64 = await readFileAsBase64(chosen);
    const opened = await ui.call(() => ui.api.openBulkFile({ name: chosen.name, base64 }));
    if (!opened) return null;
    return opened.ok ? { ok: true, file: opened.value } : { ok: false, message: opened.issues.map((issue) => issue.message).join(' ') };
  } catch (caught) {
    return { ok: false, message: `${chosen.name} could not be read: ${caught instanceof Error ? caught.message : String(caught)}` };
  }
}

/** The newest run of this kind that has not ended, if any. */
export function runningRun(runs: ReadonlyMap<string, BulkRunView>, kind: BulkRunView['kind']): string | null {
  const running = [...runs.values()].filter((run) => run.kind === kind && run.state === 'running');
  running.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  return running[0]?.id ?? null;
}

/** A file input that also takes a dropped file; compact once a file is loaded (the help has been read). */
export function FilePicker({ label, accept, help, onFile, disabled, compact = false }: {
  label: string;
  accept: string;
  help: string;
  onFile: (file: File) => void;
  disabled: boolean;
  compact?: boolean;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  return (
    <div
      className={`drop-zone ${over ? 'over' : ''} ${compact ? 'compact' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const dropped = e.dataTransfer.files[0];
        if (dropped && !disabled) onFile(dropped);
      }}
    >
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-describedby={`${id}-help`}
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          if (chosen) onFile(chosen);
          e.target.value = '';
        }}
      />
      <p id={`${id}-help`} className={compact ? 'visually-hidden' : 'form-help'}>
        {help} You can also drop the file here.
      </p>
    </div>
  );
}

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

/**
 * The frame of a bulk dialog: its title and close button, then either the run it started, or the
 * file picker with what is going on (busy, an error) above the dialog's own content.
 */
export function BulkFrame({ titleId, title, runId, verb, onClose, picker, busy, error, children }: {
  titleId: string;
  title: string;
  /** The run this dialog started (or found still running): shown instead of everything else. */
  runId: string | null;
  /** How RunView words progress ("Sent", "Reprocessed"). */
  verb: string;
  onClose: () => void;
  picker: { label: string; accept: string; help: string; compact: boolean; onFile: (file: File) => void };
  busy: string | null;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <div className="bulk-flow">
      <header className="bulk-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" onClick={onClose}>
          {runId ? 'Close' : 'Cancel'}
        </button>
      </header>
      {runId ? (
        <RunView runId={runId} verb={verb} onClose={onClose} />
      ) : (
        <>
          <FilePicker {...picker} disabled={busy !== null} />
          {busy && (
            <p role="status" className="busy">
              {busy}
            </p>
          )}
          {error && (
            <p className="problem" role="alert">
              {error}
            </p>
          )}
          {children}
        </>
      )}
    </div>
  );
}

/** What stops a file (one alert each) and how it was read (notes), under the dialog's summary line. */
export function FileFindings({ problems, notes }: { problems: readonly string[]; notes: readonly string[] }) {
  return (
    <>
      {problems.map((problem) => (
        <p key={problem} className="problem" role="alert">
          {problem}
        </p>
      ))}
      {notes.length > 0 && (
        <ul className="notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </>
  );
}
