// The batch edit's pure half: one change (group, pin colour, height, description) checked once with
// the site schema, then compared with each site as shown, so the preview says per site what moves
// from what to what. The core applies exactly this preview; the page's in-memory host uses it too.
// Invariants: a blank field changes nothing; a site already holding every value queues nothing;
// a site that cannot take the change is a problem that refuses the whole batch (all or nothing).
import type { BatchChange, BatchEditInput, BatchEditPreview, BatchField, BatchFieldChange, BatchPreviewRow } from '../contract/batch-edit';
import type { SiteView } from '../contract/views';
import type { Result } from '../result';
import { parseSiteEdit } from '../validation/index';

/** Stands in for the service ID while the change alone is checked (an edit, so no position is needed). */
const ANY_SITE_ID = '0';

/** Checks the change once for the whole batch; its issues name the batch's fields. */
export function checkBatchChange(change: BatchChange): Result<BatchEditPreview['change']> {
  const given = {
    group: blankToUndefined(change.group),
    description: blankToUndefined(change.description),
    pinStyle: blankToUndefined(change.pinStyle),
    height: blankToUndefined(change.height),
  };
  if (Object.values(given).every((value) => value === undefined)) {
    return { ok: false, issues: [{ field: 'change', message: 'Choose what to set on the selected sites: a group, a pin colour, a height or a description.' }] };
  }
  // The schema needs a height for any edit; a batch without one checks the others with a harmless 0.
  const checked = parseSiteEdit({ siteId: ANY_SITE_ID, ...given, height: given.height ?? 0 });
  if (!checked.ok) return checked;
  const value: BatchEditPreview['change'] = {};
  if (given.group !== undefined && checked.value.group !== undefined) value.group = checked.value.group;
  if (given.description !== undefined && checked.value.description !== undefined) value.description = checked.value.description;
  if (given.pinStyle !== undefined && checked.value.pinStyle !== undefined) value.pinStyle = checked.value.pinStyle;
  if (given.height !== undefined) value.height = checked.value.height;
  return { ok: true, value };
}

/** What the batch would do to each site; `siteOf` gives a site as shown (null when it is gone). */
export function previewBatchEdit(input: Pick<BatchEditInput, 'localIds' | 'change'>, siteOf: (localId: string) => SiteView | null): Result<BatchEditPreview> {
  const checked = checkBatchChange(input.change);
  if (!checked.ok) return checked;
  const change = checked.value;
  const rows: BatchPreviewRow[] = [];
  const seen = new Set<string>();
  for (const localId of input.localIds) {
    if (seen.has(localId)) continue;
    seen.add(localId);
    const site = siteOf(localId);
    if (!site) {
      rows.push({ localId, siteId: null, name: '', revision: 0, changes: [], problem: 'This site is no longer in this profile (it was removed or the profile changed).' });
      continue;
    }
    rows.push(rowFor(site, change));
  }
  const problems = rows.filter((row) => row.problem !== undefined).length;
  const changing = rows.filter((row) => row.problem === undefined && row.changes.length > 0).length;
  return { ok: true, value: { change, rows, summary: { sites: rows.length, changing, unchanged: rows.length - changing - problems, problems } } };
}

function rowFor(site: SiteView, change: BatchEditPreview['change']): BatchPreviewRow {
  const row: BatchPreviewRow = { localId: site.localId, siteId: site.siteId, name: site.name, revision: site.revision, changes: [] };
  const current: Record<BatchField, string | number | null> = { group: site.group, pinStyle: site.pinStyle, height: site.height, description: site.description };
  for (const field of ['group', 'pinStyle', 'height', 'description'] as const) {
    const to = change[field];
    if (to === undefined || current[field] === to) continue;
    const fieldChange: BatchFieldChange = { field, from: current[field], to };
    row.changes.push(fieldChange);
  }
  // Every request carries a height (the service requires one): a site without a known height can
  // only be changed when the batch sets one.
  if (row.changes.length > 0 && site.height === null && change.height === undefined) {
    row.problem = 'Its height is not known, and the service needs a height with every change: set a height in this batch, or leave this site out.';
  }
  return row;
}

function blankToUndefined<T>(value: T | undefined): T | undefined {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}
