// Pieces both bulk dialogs use: their modal and frame, the flow from a chosen file to the run it
// starts (busy and error lines, newest answer wins, a run still going is found again when a dialog
// reopens), and the file picker (which also takes a dropped file). Their tables are in table.tsx.
import { useId, useRef, useState, type ReactNode } from 'react';
import type { BulkFileView, BulkRunView, Result } from '../../../../electron/shared/contract/index';
import { readFileAsBase64 } from './files';
import { issueText } from '../../shared/issues';
import { Modal } from '../../shared/ui/dialog';
import { useUi, type Ui } from '../../shared/ui/ui-context';
import { RunView } from './run-view';
import { applyBulkRun } from './bulk-slice';

/** Reads the chosen file and hands it to the host; a refusal or a read failure comes back as a sentence. */
export async function openBulkFile(ui: Ui, chosen: File): Promise<{ ok: true; file: BulkFileView } | { ok: false; message: string } | null> {
  try {
    const base64 = await readFileAsBase64(chosen);
    const opened = await ui.call(() => ui.api.openBulkFile({ name: chosen.name, base64 }));
    if (!opened) return null;
    return opened.ok ? { ok: true, file: opened.value } : { ok: false, message: issueText(opened.issues) };
  } catch (caught) {
    return { ok: false, message: `${chosen.name} could not be read: ${caught instanceof Error ? caught.message : String(caught)}` };
  }
}

export interface BulkDialogProps {
  open: boolean;
  onClose: () => void;
}

/** A bulk dialog's modal; its flow is mounted only while it is open, so each opening starts afresh. */
export function BulkModal({ open, onClose, titleId, flow: Flow }: BulkDialogProps & { titleId: string; flow: (props: { onClose: () => void }) => ReactNode }) {
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} className="bulk-dialog">
      <Flow onClose={onClose} />
    </Modal>
  );
}

/** What a bulk dialog shows around its own content: a busy line, an error line, or the run it started. */
export interface BulkFlowState {
  busy: string | null;
  error: string | null;
  /** The run this dialog started (or found still running): shown instead of everything else. */
  runId: string | null;
}

/**
 * The flow of a bulk dialog from a chosen file to its run. A refusal from the host becomes the error
 * line; of several questions about the file only the newest one's answer counts.
 */
export function useBulkFlow(kind: BulkRunView['kind']) {
  const ui = useUi();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A run still going when the dialog was closed is shown again, not forgotten.
  const [runId, setRunId] = useState<string | null>(() => runningRun(ui.store.getState().bulkRuns, kind));
  const questionSeq = useRef(0);

  function answer<T>(result: Result<T> | undefined): T | null {
    if (!result) return null;
    if (!result.ok) {
      setError(issueText(result.issues));
      return null;
    }
    setError(null);
    return result.value;
  }

  /** Reads the chosen file and hands it to the host, then goes on with `opened` (still busy meanwhile). */
  async function open(chosen: File, opened: (file: BulkFileView) => Promise<void>): Promise<void> {
    setError(null);
    setBusy(`Reading ${chosen.name}…`);
    const result = await openBulkFile(ui, chosen);
    if (result && !result.ok) setError(result.message);
    if (result?.ok) await opened(result.file);
    setBusy(null);
  }

  /** Asks the host about the file; null when it refused, the call failed, or a newer question was asked meanwhile. */
  async function ask<T>(call: () => Promise<Result<T>>, busyText?: string): Promise<T | null> {
    const seq = ++questionSeq.current;
    if (busyText) setBusy(busyText);
    const result = await ui.call(call);
    if (seq !== questionSeq.current) return null;
    if (busyText) setBusy(null);
    return answer(result);
  }

  /** Starts the run; from then on the dialog follows it. */
  async function start(busyText: string, call: () => Promise<Result<BulkRunView>>): Promise<void> {
    setBusy(busyText);
    const result = await ui.call(call);
    setBusy(null);
    const run = answer(result);
    if (!run) return;
    applyBulkRun(ui.store, run);
    setRunId(run.id);
  }

  const state: BulkFlowState = { busy, error, runId };
  return { state, open, ask, start };
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

/**
 * The frame of a bulk dialog: its title and close button, then either the run it started, or the
 * file picker with what is going on (busy, an error) above the dialog's own content.
 */
export function BulkFrame({ titleId, title, state, verb, onClose, picker, children }: {
  titleId: string;
  title: string;
  state: BulkFlowState;
  /** How RunView words progress ("Sent", "Reprocessed"). */
  verb: string;
  onClose: () => void;
  picker: { label: string; accept: string; help: string; compact: boolean; onFile: (file: File) => void };
  children: ReactNode;
}) {
  const { runId, busy, error } = state;
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
