// "Edit together": set group, pin colour, height or description on every selected site as one
// batch. Step one asks the host for a preview (per site: what moves from what to what, which sites
// already have the values, which cannot take it); step two queues the whole batch in one durable
// write with the revisions the preview saw, so a site changed meanwhile is never overwritten unseen.
// Each site then has its own entry (and result) in the outbox.
import { useId, useMemo, useState } from 'react';
import type { BatchEditPreview, BatchFieldChange, InputIssue } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { countOf, formatCount } from '../../shared/format';
import { formatHeight, heightHint, readHeight } from '../../shared/units';
import { useAppState } from '../../shared/store/app-store';
import { InputField, SelectField } from '../../shared/ui/field';
import { Modal } from '../../shared/ui/dialog';
import { useUi } from '../../shared/ui/ui-context';
import { batchChangeOf, EMPTY_BATCH_FORM, PIN_COLOUR_LABELS, type BatchFormFields } from './batch-form';

const FIELD_LABELS: Record<BatchFieldChange['field'], string> = { group: 'Group', pinStyle: 'Pin colour', height: 'Height', description: 'Description' };
const COLOURS: Record<number, string> = { 1: 'red', 2: 'blue', 3: 'orange', 4: 'green' };

/** One field's change as a person reads it: "Group: South → North". */
export function describeChange(change: BatchFieldChange, unit: HeightUnit): string {
  const show = (value: string | number | null): string => {
    if (change.field === 'pinStyle') return typeof value === 'number' ? (COLOURS[value] ?? String(value)) : '—';
    if (change.field === 'height') return formatHeight(typeof value === 'number' ? value : null, unit);
    return value === null || value === '' ? '(blank)' : `“${String(value)}”`;
  };
  return `${FIELD_LABELS[change.field]}: ${show(change.from)} → ${show(change.to)}`;
}

export function BatchEditDialog({ open, localIds, onClose, onQueued }: {
  open: boolean;
  /** The selected sites, in the order shown. */
  localIds: readonly string[];
  onClose: () => void;
  /** After the batch was queued: the shell may clear the selection or open the outbox. */
  onQueued?: (count: number) => void;
}) {
  const ui = useUi();
  const id = useId();
  const unit = useAppState(ui.store, (s) => s.settings.heightUnit);
  const sites = useAppState(ui.store, (s) => s.sites);
  const groups = useMemo(() => [...new Set([...sites.values()].map((site) => site.group).filter(Boolean))].sort(), [sites]);
  const [fields, setFields] = useState<BatchFormFields>(EMPTY_BATCH_FORM);
  const [preview, setPreview] = useState<BatchEditPreview | null>(null);
  const [issues, setIssues] = useState<InputIssue[]>([]);
  const [busy, setBusy] = useState(false);
  /** Sites the user left out after the preview said they cannot take the change. */
  const [leftOut, setLeftOut] = useState<ReadonlySet<string>>(new Set());
  const batchIds = useMemo(() => localIds.filter((localId) => !leftOut.has(localId)), [localIds, leftOut]);
  const update = (patch: Partial<BatchFormFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    // A preview is of the fields it was made from: any edit asks for a new one.
    setPreview(null);
    setIssues([]);
  };
  const close = () => {
    setFields(EMPTY_BATCH_FORM);
    setPreview(null);
    setIssues([]);
    setLeftOut(new Set());
    onClose();
  };
  const { change, heightError } = batchChangeOf(fields, unit);
  const issueOf = (field: string) => issues.find((issue) => issue.field === field)?.message;

  async function showPreview(ids: readonly string[] = batchIds) {
    if (heightError || ids.length === 0) return;
    setBusy(true);
    const result = await ui.call(() => ui.api.previewBatchEdit({ localIds: [...ids], change }));
    setBusy(false);
    if (!result) return;
    if (!result.ok) setIssues(result.issues);
    else setPreview(result.value);
  }

  async function apply() {
    if (!preview) return;
    setBusy(true);
    const revisions = Object.fromEntries(preview.rows.map((row) => [row.localId, row.revision]));
    const result = await ui.call(() => ui.api.applyBatchEdit({ localIds: [...batchIds], change, revisions }));
    setBusy(false);
    if (!result) return;
    if (!result.ok) {
      setIssues(result.issues);
      setPreview(null);
      return;
    }
    const count = result.value.queued.length;
    ui.toast(count === 0 ? 'Nothing to change: every selected site already has these values.' : `Queued ${countOf(count, 'change', 'changes')}, one per site: each is sent and reported in the outbox.`, { tone: 'success' });
    onQueued?.(count);
    close();
  }

  const changing = preview ? preview.rows.filter((row) => row.changes.length > 0 && !row.problem) : [];
  const blocked = preview ? preview.rows.filter((row) => row.problem) : [];
  return (
    <Modal open={open} onClose={close} labelledBy={`${id}-title`} className="batch-edit">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void (preview ? apply() : showPreview());
        }}
      >
        <h2 id={`${id}-title`}>Edit {countOf(batchIds.length, 'site', 'sites')} together</h2>
        <p className="hint">Fill in only what should change; a blank field leaves each site as it is.</p>
        <InputField label="Group" id={`${id}-group`} value={fields.group} list={`${id}-groups`} error={issueOf('group')} onChange={(e) => update({ group: e.target.value })} />
        <datalist id={`${id}-groups`}>
          {groups.map((group) => (
            <option key={group} value={group} />
          ))}
        </datalist>
        <SelectField
          label="Pin colour"
          id={`${id}-pin`}
          value={fields.pinStyle}
          options={['', '1', '2', '3', '4'] as const}
          labels={PIN_COLOUR_LABELS}
          error={issueOf('pinStyle')}
          onChange={(pinStyle) => update({ pinStyle })}
        />
        <InputField label={`Height (${unit})`} id={`${id}-height`} inputMode="decimal" value={fields.height} error={heightError ?? issueOf('height')} hint={fields.height.trim() === '' ? `In ${unit === 'ft' ? 'feet' : 'meters'}, or write "ft" or "m" after the number.` : heightHint(readHeight(fields.height, unit), heightError !== null)} onChange={(e) => update({ height: e.target.value })} />
        <InputField label="Description" id={`${id}-description`} value={fields.description} error={issueOf('description')} onChange={(e) => update({ description: e.target.value })} />
        {issues.filter((issue) => !['group', 'pinStyle', 'height', 'description'].includes(issue.field)).map((issue, i) => (
          <p key={i} className="form-error" role="alert">
            {issue.message}
          </p>
        ))}
        {preview && (
          <section className="batch-preview" aria-labelledby={`${id}-preview-title`}>
            <h3 id={`${id}-preview-title`}>Preview</h3>
            <p role="status">
              {formatCount(changing.length)} of {countOf(preview.summary.sites, 'site changes', 'sites change')}
              {preview.summary.unchanged > 0 ? `; ${formatCount(preview.summary.unchanged)} already ${preview.summary.unchanged === 1 ? 'has' : 'have'} these values` : ''}
              {blocked.length > 0 ? `; ${formatCount(blocked.length)} cannot take the change, so nothing will be queued until ${blocked.length === 1 ? 'it is' : 'they are'} left out` : ''}.
            </p>
            <div className="batch-preview-rows" tabIndex={0} aria-label="Changes per site">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Site</th>
                    <th scope="col">What changes</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.rows.map((row) => (
                    <tr key={row.localId} className={row.problem ? 'has-problem' : row.changes.length === 0 ? 'unchanged' : ''}>
                      <th scope="row">{row.name || (row.siteId ? `Site ${row.siteId}` : row.localId)}</th>
                      <td>{row.problem ?? (row.changes.length === 0 ? 'Already has these values' : row.changes.map((c) => describeChange(c, unit)).join('; '))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {blocked.length > 0 && (
              <button
                type="button"
                onClick={() => {
                  const next = new Set([...leftOut, ...blocked.map((row) => row.localId)]);
                  setLeftOut(next);
                  void showPreview(localIds.filter((localId) => !next.has(localId)));
                }}
              >
                Leave out {countOf(blocked.length, 'site', 'sites')} that cannot take it
              </button>
            )}
          </section>
        )}
        <div className="actions">
          {preview ? (
            <button type="submit" className="primary" disabled={busy || blocked.length > 0 || changing.length === 0}>
              {busy ? 'Queueing…' : `Queue ${countOf(changing.length, 'change', 'changes')}`}
            </button>
          ) : (
            <button type="submit" className="primary" disabled={busy || Object.keys(change).length === 0 || heightError !== null}>
              {busy ? 'Reading the sites…' : 'Preview changes'}
            </button>
          )}
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
