// Import sites from a file (CSV/TSV from any office tool, KML/KMZ, GeoJSON): choose the file, see how
// its columns were understood and change that by hand, see every row checked by the shared schema
// (the dry run), then queue the ready rows in one batch and follow them to the report. The host does
// the reading and checking (off this page's thread) and checks again when the rows are applied.
import { useEffect, useId, useState } from 'react';
import { PREVIEW_PAGE_ROWS, type ImportOptionsInput, type ImportPreviewView, type PreviewRowsPage, type RowFilter } from '../../../../electron/shared/contract/index';
import { IMPORT_TARGETS, targetLabel, type ImportTarget } from '../../../../electron/shared/bulk/fields';
import { PIN_STYLES } from '../../../../electron/shared/domain';
import type { PreviewRow } from '../../../../electron/shared/bulk/preview';
import { MAX_IMPORT_ROWS, tooManyRowsSentence } from '../../../../electron/shared/bulk/limits';
import { formatBytes, saveFile } from './files';
import { PIN_NAMES } from '../../shared/sprites';
import { useUi } from '../../shared/ui/ui-context';
import { BulkFrame, BulkModal, FileFindings, useBulkFlow, type BulkDialogProps } from './bulk-parts';
import { DataTable, Pager } from './table';

const ACCEPT = '.csv,.tsv,.tab,.txt,.kml,.kmz,.geojson,.json';

const FILTERS: Array<[RowFilter, string]> = [
  ['all', 'All rows'],
  ['invalid', 'Invalid'],
  ['notes', 'With notes'],
  ['create', 'New sites'],
  ['edit', 'Changes'],
  ['unchanged', 'Unchanged'],
  ['skip', 'Skipped'],
];

interface Opened {
  fileId: string;
  name: string;
  size: number;
}

export function ImportDialog({ open, onClose }: BulkDialogProps) {
  return <BulkModal open={open} onClose={onClose} titleId="import-title" flow={ImportFlow} />;
}

function ImportFlow({ onClose }: { onClose: () => void }) {
  const ui = useUi();
  const flow = useBulkFlow('import');
  const [file, setFile] = useState<Opened | null>(null);
  const [preview, setPreview] = useState<ImportPreviewView | null>(null);
  const [options, setOptions] = useState<ImportOptionsInput>({});

  function choose(chosen: File) {
    void flow.open(chosen, async (opened) => {
      setFile(opened);
      setOptions({});
      await refresh(opened.fileId, {});
    });
  }

  /** Asks the host for the dry run with these choices. */
  async function refresh(fileId: string, next: ImportOptionsInput) {
    const checked = await flow.ask(() => ui.api.previewImport(fileId, next), 'Checking every row…');
    if (checked) setPreview(checked);
  }

  function change(next: ImportOptionsInput) {
    setOptions(next);
    if (file) void refresh(file.fileId, next);
  }

  async function apply() {
    if (!file || !preview) return;
    await flow.start('Starting the import…', () => ui.api.startImport(file.fileId, options));
  }

  return (
    <BulkFrame
      titleId="import-title"
      title={`Import sites${file ? `: ${file.name}` : ''}`}
      state={flow.state}
      verb="Sent"
      onClose={onClose}
      picker={{
        label: file ? 'Another file' : 'Sites file',
        accept: ACCEPT,
        help: 'CSV or TSV (from Excel, LibreOffice or Google Sheets), KML or KMZ (Google Earth), or GeoJSON.',
        compact: file !== null,
        onFile: choose,
      }}
    >
      {file && preview && <Review file={file} preview={preview} options={options} onChange={change} onApply={() => void apply()} busy={flow.state.busy !== null} />}
    </BulkFrame>
  );
}

function Review({ file, preview, options, onChange, onApply, busy }: {
  file: Opened;
  preview: ImportPreviewView;
  options: ImportOptionsInput;
  onChange: (next: ImportOptionsInput) => void;
  onApply: () => void;
  busy: boolean;
}) {
  const s = preview.summary;
  const blocked = preview.problems.length > 0;
  const invalidBlocks = s.invalid > 0 && options.skipInvalid !== true;
  // The host refuses more than this in one import (each row is held until sent): said before, not after, the press.
  const tooMany = s.ready > MAX_IMPORT_ROWS;
  const canApply = !blocked && !invalidBlocks && !tooMany && s.ready > 0 && !busy;
  const details = Object.entries(preview.details).map(([key, value]) => `${key}: ${value}`);
  const ui = useUi();
  // Every row is on the host; the report is made there.
  async function downloadDryRun() {
    const report = await ui.call(() => ui.api.getDryRunReport(file.fileId));
    if (report?.ok) saveFile(report.value);
  }

  return (
    <>
      <section aria-label="What the file holds" className="bulk-summary">
        <p>
          <strong>{file.name}</strong> ({formatBytes(file.size)}, {preview.format.toUpperCase()}
          {details.length > 0 ? `; ${details.join('; ')}` : ''})
        </p>
        <p className="summary-line" role="status">
          {s.total.toLocaleString()} rows: <strong>{s.creates.toLocaleString()}</strong> new sites, <strong>{s.edits.toLocaleString()}</strong> changes,{' '}
          {s.unchanged.toLocaleString()} unchanged, <strong className={s.invalid > 0 ? 'bad' : ''}>{s.invalid.toLocaleString()} invalid</strong>, {s.skipped.toLocaleString()} skipped
          {s.duplicates > 0 ? ` (${s.duplicates.toLocaleString()} share a site ID)` : ''}.
        </p>
        <FileFindings problems={preview.problems} notes={preview.notes} />
      </section>

      <details className="mapping" open={preview.columns.some((column) => column.source !== 'auto') || blocked}>
        <summary>Columns and defaults</summary>
        <Mapping preview={preview} options={options} onChange={onChange} disabled={busy} />
      </details>

      <PreviewTable fileId={file.fileId} preview={preview} />

      <div className="bulk-footer">
        {s.invalid > 0 && (
          <label className="check">
            <input type="checkbox" checked={options.skipInvalid === true} onChange={(e) => onChange({ ...options, skipInvalid: e.target.checked })} />
            Leave out the {s.invalid.toLocaleString()} invalid row{s.invalid === 1 ? '' : 's'} and queue the rest
          </label>
        )}
        <div className="actions">
          <button type="button" className="primary" disabled={!canApply} onClick={onApply}>
            {s.ready > 0 ? `Queue ${s.ready.toLocaleString()} row${s.ready === 1 ? '' : 's'}` : 'Nothing to queue'}
          </button>
          <button
            type="button"
            onClick={() => void downloadDryRun()}
          >
            Download dry-run report
          </button>
        </div>
        {(blocked || invalidBlocks || tooMany) && (
          <p className="form-help">
            {blocked
              ? 'Fix the problems above (often a column to map by hand) before anything can be queued.'
              : tooMany
                ? tooManyRowsSentence(s.ready)
                : 'Invalid rows refuse the whole file unless you leave them out: nothing is queued half-way.'}
          </p>
        )}
      </div>
    </>
  );
}

function Mapping({ preview, options, onChange, disabled }: { preview: ImportPreviewView; options: ImportOptionsInput; onChange: (next: ImportOptionsInput) => void; disabled: boolean }) {
  const id = useId();
  const mapping = options.mapping ?? {};
  const defaults = options.defaults ?? {};

  function setColumn(index: number, target: string) {
    const next = { ...mapping };
    const key = `#${index + 1}`;
    if (target === 'auto') delete next[key];
    else next[key] = target;
    onChange({ ...options, mapping: next });
  }

  function setDefault(field: 'height' | 'pinStyle', value: string) {
    const next = { ...defaults };
    if (value.trim() === '') delete next[field];
    else next[field] = value;
    onChange({ ...options, defaults: next });
  }

  return (
    <div className="mapping-body">
      <table className="data-table mapping-table">
        <thead>
          <tr>
            <th scope="col">Column in the file</th>
            <th scope="col">Goes to</th>
            <th scope="col">How</th>
          </tr>
        </thead>
        <tbody>
          {preview.columns.map((column) => {
            const manual = mapping[`#${column.index + 1}`];
            return (
              <tr key={column.index}>
                <th scope="row">{column.header || `(column ${column.index + 1})`}</th>
                <td>
                  <select
                    aria-label={`Field for column ${column.header || column.index + 1}`}
                    value={manual ?? 'auto'}
                    disabled={disabled}
                    onChange={(e) => setColumn(column.index, e.target.value)}
                  >
                    <option value="auto">{column.source === 'manual' ? 'Automatic' : `Automatic: ${column.target ? targetLabel(column.target) : 'not used'}`}</option>
                    {IMPORT_TARGETS.map((target: ImportTarget) => (
                      <option key={target} value={target}>
                        {target === 'ignore' ? 'Not used' : targetLabel(target)}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{column.source === 'manual' ? 'By hand' : column.source === 'auto' ? 'Recognised' : 'Not recognised'}{column.note ? ` — ${column.note}` : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="mapping-options">
        <div className="field">
          <label htmlFor={`${id}-height`}>Height for rows without one (m)</label>
          <input id={`${id}-height`} inputMode="numeric" value={defaults.height ?? ''} disabled={disabled} onChange={(e) => setDefault('height', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-pin`}>Pin colour for rows without one</label>
          <select id={`${id}-pin`} value={defaults.pinStyle ?? ''} disabled={disabled} onChange={(e) => setDefault('pinStyle', e.target.value)}>
            <option value="">Red (the service's default)</option>
            {PIN_STYLES.map((style) => (
              <option key={style} value={String(style)}>
                {PIN_NAMES[style]}
              </option>
            ))}
          </select>
        </div>
        {preview.format === 'csv' && (
          <div className="field">
            <label htmlFor={`${id}-sep`}>Separator</label>
            <select
              id={`${id}-sep`}
              value={options.delimiter ?? ''}
              disabled={disabled}
              onChange={(e) => onChange({ ...options, delimiter: (e.target.value || undefined) as ImportOptionsInput['delimiter'] })}
            >
              <option value="">Detected{preview.details['separator'] ? ` (${preview.details['separator']})` : ''}</option>
              <option value="comma">Comma</option>
              <option value="semicolon">Semicolon</option>
              <option value="tab">Tab</option>
              <option value="pipe">Pipe |</option>
            </select>
          </div>
        )}
      </div>
    </div>
  );
}

const PREVIEW_HEAD = ['Row', 'Will', 'Site ID', 'Name', 'Height (m)', 'Latitude', 'Longitude', 'Group', 'Pin', 'Notes'];

/** The preview's rows a page at a time, asked of the host (which keeps them) by filter and page. */
function PreviewTable({ fileId, preview }: { fileId: string; preview: ImportPreviewView }) {
  const id = useId();
  const ui = useUi();
  const [shown, setShown] = useState<PreviewRowsPage>(preview.firstPage);
  // A new dry run (other choices) starts the table again from its first page.
  useEffect(() => setShown(preview.firstPage), [preview]);
  const pages = Math.max(1, Math.ceil(shown.total / PREVIEW_PAGE_ROWS));
  const page = Math.floor(shown.offset / PREVIEW_PAGE_ROWS);

  async function show(filter: RowFilter, nextPage: number) {
    const answer = await ui.call(() => ui.api.getPreviewRows(fileId, { filter, offset: nextPage * PREVIEW_PAGE_ROWS }));
    if (answer?.ok) setShown(answer.value);
  }

  return (
    <section className="preview" aria-labelledby={`${id}-title`}>
      <div className="preview-bar">
        <h3 id={`${id}-title`}>Rows</h3>
        <label htmlFor={`${id}-filter`}>Show</label>
        <select id={`${id}-filter`} value={shown.filter} onChange={(e) => void show(e.target.value as RowFilter, 0)}>
          {FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label} ({preview.rowCounts[value].toLocaleString()})
            </option>
          ))}
        </select>
        <Pager page={page} pages={pages} total={shown.total} onPage={(next) => void show(shown.filter, next)} />
      </div>
      <DataTable className="preview-table" head={PREVIEW_HEAD}>
        {shown.rows.map((row) => (
          <PreviewLine key={row.row} row={row} />
        ))}
        {shown.rows.length === 0 && (
          <tr>
            <td colSpan={PREVIEW_HEAD.length} className="empty">
              No rows here.
            </td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}

const ACTION_LABELS: Record<PreviewRow['action'], string> = { create: 'Create', edit: 'Change', unchanged: 'Nothing', skip: 'Skip' };

function PreviewLine({ row }: { row: PreviewRow }) {
  const invalid = row.issues.length > 0;
  const value = (field: keyof PreviewRow['input']) => {
    const checked = row.edit?.[field as keyof NonNullable<PreviewRow['edit']>];
    return checked !== undefined && checked !== null ? String(checked) : String(row.input[field] ?? '');
  };
  const pin = row.edit?.pinStyle;
  return (
    <tr className={invalid ? 'row-invalid' : row.warnings.length > 0 ? 'row-warning' : ''}>
      <td>{row.row}</td>
      <td>{invalid ? <strong className="bad">Invalid</strong> : ACTION_LABELS[row.action]}</td>
      <td>{value('siteId')}</td>
      <td>{value('name')}</td>
      <td>
        {value('height')}
        {row.flags.includes('height-from-feet') ? <small> (from feet)</small> : null}
      </td>
      <td>{value('latitude')}</td>
      <td>{value('longitude')}</td>
      <td>{value('group')}</td>
      <td>{pin ? PIN_NAMES[pin] : String(row.input.pinStyle ?? '')}</td>
      <td>
        {row.issues.map((issue) => (
          <span key={`${issue.field}-${issue.message}`} className="issue">
            {issue.message}{' '}
          </span>
        ))}
        {row.warnings.join(' ')}
        {row.skipReason ?? ''}
      </td>
    </tr>
  );
}
