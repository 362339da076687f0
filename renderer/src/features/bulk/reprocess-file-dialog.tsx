// Reprocess many EUS submissions from the service's EUS CSV download: the process ID column is found
// by its name, rows can be filtered by any column and picked one by one, then every picked
// submission is queued in one batch into the chosen Multi Map, with or without the email (an explicit
// choice, as in the single reprocess), and followed to the report. A process ID listed twice is
// reprocessed once, so nobody gets the email twice. A submission emailed (or queued to be) in the last
// 24 hours is marked; with the email it is left out, and named in the confirmation, unless the user
// ticks "Email again" on its row.
import { useId, useMemo, useState } from 'react';
import type { EusPlan, EusPlanRow, ReprocessFileOptions } from '../../../../electron/shared/contract/index';
import { parseEusReprocess } from '../../../../electron/shared/validation';
import { issueText, issuesByField } from '../../shared/issues';
import { FieldError } from '../../shared/ui/field';
import { useUi } from '../../shared/ui/ui-context';
import { BulkFrame, BulkModal, FileFindings, useBulkFlow, type BulkDialogProps } from './bulk-parts';
import { DataTable, Pager, usePages } from './table';
import { EusMap, formatKm } from '../eus';

/** Columns shown beside the process ID (the download has many; these say who and where). */
const EXTRA_COLUMNS = 4;

interface Opened {
  fileId: string;
  name: string;
}

type Filter = { column: string; value: string };

export function ReprocessFileDialog({ open, onClose }: BulkDialogProps) {
  return <BulkModal open={open} onClose={onClose} titleId="reprocess-file-title" flow={ReprocessFlow} />;
}

function ReprocessFlow({ onClose }: { onClose: () => void }) {
  const ui = useUi();
  const id = useId();
  const flow = useBulkFlow('reprocess');
  const [file, setFile] = useState<Opened | null>(null);
  const [plan, setPlan] = useState<EusPlan | null>(null);
  const [filters, setFilters] = useState<Filter[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  /** Rows marked as emailed in the last 24 h that the user chose to email again. */
  const [emailAgain, setEmailAgain] = useState<Set<number>>(new Set());
  const [multiMapId, setMultiMapId] = useState('');
  const [sendEmail, setSendEmail] = useState<'yes' | 'no' | ''>('');
  const [submitted, setSubmitted] = useState(false);
  /** "Only within N km of a site" (a file with positions): applied by the host, like the filters. */
  const [withinKm, setWithinKm] = useState<number | null>(null);

  const shared = parseEusReprocess({ processId: 'x', multiMapId, sendEmail: sendEmail === '' ? undefined : sendEmail === 'yes' });
  const issues: Partial<Record<string, string>> = shared.ok ? {} : issuesByField(shared.issues);
  const sharedMessages = new Set(shared.ok ? [] : shared.issues.map((issue) => issue.message));

  function choose(chosen: File) {
    void flow.open(chosen, async (opened) => {
      setFile(opened);
      setFilters([]);
      setWithinKm(null);
      setEmailAgain(new Set());
      const first = await load(opened.fileId, [], null);
      if (first) setSelected(new Set(first.rows.map((row) => row.row)));
    });
  }

  /** The plan for every row the filters keep (the selection is applied on queueing). */
  async function load(fileId: string, nextFilters: Filter[], within: number | null): Promise<EusPlan | null> {
    const loaded = await flow.ask(() => ui.api.previewReprocessFile(fileId, { multiMapId: '0', sendEmail: false, filters: nextFilters, ...(within !== null ? { withinKm: within } : {}) }));
    if (!loaded) return null;
    setPlan(loaded);
    setPage(0);
    return loaded;
  }

  function changeFilters(next: Filter[]) {
    setFilters(next);
    if (file) void load(file.fileId, next, withinKm);
  }

  function changeWithin(next: number | null) {
    setWithinKm(next);
    if (file) void load(file.fileId, filters, next);
  }

  const rows = plan?.rows ?? [];
  const picked = rows.filter((row) => selected.has(row.row));
  const emailing = sendEmail === 'yes';
  const sendable = picked.filter((row) => row.request !== null && row.sameAsRow === undefined);
  const marked = sendable.filter((row) => row.recentEmail !== undefined);
  const heldBack = emailing ? marked.filter((row) => !emailAgain.has(row.row)) : [];
  const againAnyway = emailing ? marked.filter((row) => emailAgain.has(row.row)) : [];
  const ready = sendable.filter((row) => !heldBack.includes(row));
  const fileProblems = (plan?.problems ?? []).filter((problem) => !sharedMessages.has(problem) && !/Multi Map|email/i.test(problem));

  async function queue() {
    setSubmitted(true);
    if (!file || !shared.ok || ready.length === 0) return;
    const options: ReprocessFileOptions = {
      multiMapId: shared.value.multiMapId,
      sendEmail: shared.value.sendEmail,
      filters,
      ...(withinKm !== null ? { withinKm } : {}),
      // Held-back rows stay out of the selection: the run reports the rows it was asked to queue.
      selectedRows: picked.filter((row) => !heldBack.includes(row)).map((row) => row.row),
      emailAgainRows: againAnyway.map((row) => row.row),
      skipInvalid: true,
    };
    const ok = await ui.confirm({
      title: `Reprocess ${ready.length.toLocaleString()} submission${ready.length === 1 ? '' : 's'}?`,
      body: (
        <>
          <p>
            Into Multi Map {shared.value.multiMapId},{' '}
            {shared.value.sendEmail ? <strong>and the EUS email is sent again for each one</strong> : 'without sending any email'}.
          </p>
          {againAnyway.length > 0 && (
            <p>
              <strong>
                Emailed again although emailed (or queued to be) in the last 24 hours: {submissionList(againAnyway)}.
              </strong>
            </p>
          )}
          {heldBack.length > 0 && <p>Left out, emailed (or queued to be) in the last 24 hours: {submissionList(heldBack)}.</p>}
        </>
      ),
      confirmLabel: 'Queue the reprocesses',
      ...(againAnyway.length > 0 ? { danger: true, focus: 'cancel' as const } : {}),
    });
    if (!ok) return;
    await flow.start('Queueing…', () => ui.api.startReprocessFile(file.fileId, options));
  }

  const columns = plan ? plan.columns.filter((column) => column !== plan.processIdColumn).slice(0, EXTRA_COLUMNS) : [];
  const { page, pages, slice, setPage } = usePages(rows);
  const allPicked = rows.length > 0 && rows.every((row) => selected.has(row.row));

  return (
    <BulkFrame
      titleId="reprocess-file-title"
      title={`Reprocess EUS submissions from a file${file ? `: ${file.name}` : ''}`}
      state={flow.state}
      verb="Reprocessed"
      onClose={onClose}
      picker={{
        label: file ? 'Another file' : 'EUS CSV download',
        accept: '.csv,.tsv,.txt',
        help: 'The CSV download of the EUS data, with its process ID column.',
        compact: file !== null,
        onFile: choose,
      }}
    >
      {plan && (
        <>
          <section className="bulk-summary" aria-label="What the file holds">
            <p className="summary-line" role="status">
              {rows.length.toLocaleString()} submission{rows.length === 1 ? '' : 's'} {filters.length > 0 || withinKm !== null ? `match the filters (${withinKm !== null ? `within ${withinKm} km of a site; ` : ''}${plan.excluded.toLocaleString()} left out)` : 'in the file'}; <strong>{picked.length.toLocaleString()} picked</strong>
              {picked.length !== ready.length ? `, ${ready.length.toLocaleString()} of them can be sent` : ''}. Process IDs are in the column “{plan.processIdColumn || '?'}”.
            </p>
            {marked.length > 0 && (
              <p className={emailing ? 'summary-line warning' : 'summary-line'}>
                {marked.length.toLocaleString()} picked submission{marked.length === 1 ? ' was' : 's were'} emailed (or {marked.length === 1 ? 'is' : 'are'} queued to be) in the last 24 hours
                {emailing
                  ? heldBack.length > 0
                    ? `: ${heldBack.length.toLocaleString()} left out, so nobody is emailed twice; tick “Email again” on a row to include it.`
                    : ': all ticked to be emailed again.'
                  : '; with the email they are left out unless ticked.'}
              </p>
            )}
            <FileFindings problems={fileProblems} notes={plan.notes} />
          </section>
          <FilterBar columns={plan.columns} filters={filters} onChange={changeFilters} />
          {plan.coordinates && (
            <>
              <DistanceFilter withinKm={withinKm} onChange={changeWithin} />
              <EusMap
                rows={rows}
                picked={selected}
                onToggle={(row) =>
                  setSelected((previous) => {
                    const next = new Set(previous);
                    if (next.has(row)) next.delete(row);
                    else next.add(row);
                    return next;
                  })}
                onPick={(boxed, add) => setSelected((previous) => new Set(add ? [...previous, ...boxed] : boxed))}
              />
            </>
          )}
          <section className="preview" aria-label="Submissions">
            <div className="preview-bar">
              <label className="check">
                <input
                  type="checkbox"
                  checked={allPicked}
                  onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((row) => row.row)) : new Set())}
                />
                Pick all {rows.length.toLocaleString()}
              </label>
              <Pager page={page} pages={pages} total={rows.length} onPage={setPage} />
            </div>
            <DataTable head={['Pick', 'Row', 'Process ID', ...(plan.coordinates ? ['Nearest site'] : []), ...columns, 'Notes']}>
              {slice.map((row) => (
                <tr key={row.row} className={row.issues.length > 0 ? 'row-invalid' : row.sameAsRow !== undefined || row.recentEmail !== undefined ? 'row-warning' : ''}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Pick row ${row.row}, process ID ${row.processId || 'missing'}`}
                      checked={selected.has(row.row)}
                      onChange={(e) =>
                        setSelected((previous) => {
                          const next = new Set(previous);
                          if (e.target.checked) next.add(row.row);
                          else next.delete(row.row);
                          return next;
                        })}
                    />
                  </td>
                  <td>{row.row}</td>
                  <td>{row.processId}</td>
                  {plan.coordinates && <td>{row.nearestSite ? `${formatKm(row.nearestSite.km)} · ${row.nearestSite.name || row.nearestSite.siteId || 'a site'}` : (row.placeProblem ?? 'No position')}</td>}
                  {columns.map((column) => (
                    <td key={column}>{Object.hasOwn(row.values, column) ? row.values[column] : ''}</td>
                  ))}
                  <td>
                    {issueText(row.issues)}
                    {row.sameAsRow !== undefined ? `Same process ID as row ${row.sameAsRow}: reprocessed once.` : ''}
                    {row.recentEmail !== undefined && row.sameAsRow === undefined && (
                      <RecentEmailNote
                        row={row}
                        emailing={emailing}
                        ticked={emailAgain.has(row.row)}
                        onTick={(ticked) =>
                          setEmailAgain((previous) => {
                            const next = new Set(previous);
                            if (ticked) next.add(row.row);
                            else next.delete(row.row);
                            return next;
                          })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          </section>
          <form
            className="bulk-footer reprocess-choice"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void queue();
            }}
          >
            <div className={`field ${submitted && issues['multiMapId'] ? 'has-error' : ''}`}>
              <label htmlFor={`${id}-mm`}>Multi Map ID</label>
              <input
                id={`${id}-mm`}
                inputMode="numeric"
                value={multiMapId}
                onChange={(e) => setMultiMapId(e.target.value)}
                aria-invalid={submitted && issues['multiMapId'] ? true : undefined}
                aria-describedby={`${id}-mm-error`}
              />
              <FieldError id={`${id}-mm-error`} message={submitted ? issues['multiMapId'] : undefined} />
            </div>
            <fieldset className={`email-choice ${submitted && issues['sendEmail'] ? 'has-error' : ''}`} aria-describedby={`${id}-email-error`}>
              <legend>Send the EUS email again?</legend>
              <label>
                <input type="radio" name={`${id}-email`} checked={sendEmail === 'yes'} onChange={() => setSendEmail('yes')} />
                Yes: email the account's EUS recipients again for each submission (and push it to the EUS API, if one is set up)
              </label>
              <label>
                <input type="radio" name={`${id}-email`} checked={sendEmail === 'no'} onChange={() => setSendEmail('no')} />
                No: reprocess quietly, no email
              </label>
              <FieldError id={`${id}-email-error`} message={submitted ? issues['sendEmail'] : undefined} />
            </fieldset>
            <div className="actions">
              <button type="submit" className="primary" disabled={flow.state.busy !== null || ready.length === 0}>
                Queue {ready.length.toLocaleString()} reprocess{ready.length === 1 ? '' : 'es'}
              </button>
            </div>
          </form>
        </>
      )}
    </BulkFrame>
  );
}

/** "Emailed 20 minutes ago", and with the email chosen, the tick that lets this one be emailed again. */
function RecentEmailNote({ row, emailing, ticked, onTick }: { row: EusPlanRow; emailing: boolean; ticked: boolean; onTick: (ticked: boolean) => void }) {
  return (
    <span className="recent-email">
      <span>{row.recentEmail}.</span>{' '}
      {emailing && (
        <label className="check">
          <input type="checkbox" checked={ticked} onChange={(e) => onTick(e.target.checked)} aria-label={`Email submission ${row.processId} again (${row.recentEmail})`} />
          Email again
        </label>
      )}
      {emailing && !ticked && <span> Left out.</span>}
    </span>
  );
}

function submissionList(rows: readonly EusPlanRow[]): string {
  const shown = rows.slice(0, 20).map((row) => `${row.processId} (${row.recentEmail ?? 'emailed'})`);
  return rows.length > shown.length ? `${shown.join(', ')} and ${(rows.length - shown.length).toLocaleString()} more` : shown.join(', ');
}

/** "Only submissions within N km of a site": typed, applied, or taken off again. */
function DistanceFilter({ withinKm, onChange }: { withinKm: number | null; onChange: (next: number | null) => void }) {
  const id = useId();
  const [text, setText] = useState(withinKm === null ? '' : String(withinKm));
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="filter-add distance-filter"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const value = Number(text.trim().replace(',', '.'));
        if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 20_000) {
          setError('Enter a distance in kilometers, like 2 or 0.5.');
          return;
        }
        setError(null);
        onChange(value);
      }}
    >
      <div className={`field ${error ? 'has-error' : ''}`}>
        <label htmlFor={`${id}-km`}>Only within this many km of a site</label>
        <input id={`${id}-km`} inputMode="decimal" value={text} aria-invalid={error ? true : undefined} aria-describedby={`${id}-km-error`} onChange={(e) => setText(e.target.value)} />
        <FieldError id={`${id}-km-error`} message={error ?? undefined} />
      </div>
      <button type="submit">Apply distance</button>
      {withinKm !== null && (
        <button
          type="button"
          onClick={() => {
            setText('');
            onChange(null);
          }}
        >
          Any distance
        </button>
      )}
    </form>
  );
}

function FilterBar({ columns, filters, onChange }: { columns: string[]; filters: Filter[]; onChange: (next: Filter[]) => void }) {
  const id = useId();
  const [column, setColumn] = useState(columns[0] ?? '');
  const [value, setValue] = useState('');
  const known = useMemo(() => new Set(columns), [columns]);
  const chosen = known.has(column) ? column : (columns[0] ?? '');
  return (
    <section className="filter-bar" aria-label="Filters">
      <form
        className="filter-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen || value.trim() === '') return;
          onChange([...filters, { column: chosen, value: value.trim() }]);
          setValue('');
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-column`}>Filter by column</label>
          <select id={`${id}-column`} value={chosen} onChange={(e) => setColumn(e.target.value)}>
            {columns.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>equal to (* matches any text)</label>
          <input id={`${id}-value`} value={value} onChange={(e) => setValue(e.target.value)} />
        </div>
        <button type="submit">Add filter</button>
      </form>
      {filters.length > 0 && (
        <ul className="filters">
          {filters.map((filter, index) => (
            <li key={`${filter.column}=${filter.value}`}>
              {filter.column} = {filter.value}
              <button type="button" aria-label={`Remove filter ${filter.column} = ${filter.value}`} onClick={() => onChange(filters.filter((_, i) => i !== index))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
