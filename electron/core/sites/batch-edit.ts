// Applies a batch edit: the preview again (from the sites as they are now), refused when a site
// moved on since the page's preview or when one cannot take the change, then one saveMany — every
// changed site's outbox entry and register record in one transaction, so a failure queues nothing.
import type { BatchEditApplied, BatchEditInput, BatchEditPreview } from '../../shared/contract/batch-edit';
import { previewBatchEdit } from '../../shared/bulk/batch-edit';
import type { BatchIssue, Result } from '../../shared/result';
import type { SitewalkCore } from '../sitewalk-core';

type Sites = Pick<SitewalkCore['sites'], 'get' | 'saveMany'>;

/** The preview of a batch against the active profile's sites as they are now. */
export function previewSitesBatch(sites: Sites, input: BatchEditInput): Result<BatchEditPreview> {
  return previewBatchEdit(input, (localId) => {
    const site = sites.get(localId);
    // sites.get also finds a service site ID; a batch names sites by local ID only.
    return site && site.localId === localId ? site : null;
  });
}

/** Queues the batch in one durable write, or nothing with the reason per site. */
export async function applySitesBatch(sites: Sites, input: BatchEditInput): Promise<Result<BatchEditApplied>> {
  const preview = previewSitesBatch(sites, input);
  if (!preview.ok) return preview;
  const { rows, change } = preview.value;
  const problems = rows.filter((row) => row.problem !== undefined);
  if (problems.length > 0) {
    return { ok: false, issues: problems.map((row) => ({ field: 'localIds', message: `${siteLabel(row)}: ${row.problem!}` })) };
  }
  if (input.revisions) {
    const moved = rows.filter((row) => input.revisions![row.localId] !== undefined && input.revisions![row.localId] !== row.revision);
    if (moved.length > 0) {
      const named = moved.slice(0, 5).map(siteLabel).join(', ');
      const more = moved.length > 5 ? ` and ${moved.length - 5} more` : '';
      return {
        ok: false,
        issues: [{ field: 'revisions', message: `${moved.length === 1 ? 'A site' : `${moved.length} sites`} changed since the preview (${named}${more}): look at the preview again before applying. Nothing was queued.` }],
      };
    }
  }
  const changing = rows.filter((row) => row.changes.length > 0);
  if (changing.length === 0) return { ok: true, value: { queued: [], unchanged: rows.length } };
  // Only the fields that change for this site: an absent field is "unchanged" on the wire too.
  const saves = changing.map((row) => {
    const save: { localId: string; group?: string; pinStyle?: number; height?: number; description?: string } = { localId: row.localId };
    for (const { field } of row.changes) (save as Record<string, unknown>)[field] = change[field];
    return save;
  });
  const outcome = await sites.saveMany(saves);
  if (!outcome.ok) return { ok: false, issues: outcome.issues.map((issue) => batchIssue(issue, changing)) };
  return {
    ok: true,
    value: {
      queued: outcome.value.map((saved) => ({ localId: saved.site.localId, entryId: saved.entry.id, coalesced: saved.coalesced })),
      unchanged: rows.length - changing.length,
    },
  };
}

function siteLabel(row: { name: string; siteId: string | null; localId: string }): string {
  if (row.name) return `"${row.name}"`;
  return row.siteId ? `site ${row.siteId}` : `site ${row.localId}`;
}

/** A refusal from the save names the site it is about, not its position in the batch. */
function batchIssue(issue: BatchIssue, rows: ReadonlyArray<{ name: string; siteId: string | null; localId: string }>): { field: string; message: string } {
  const row = rows[issue.index];
  return { field: issue.field, message: row ? `${siteLabel(row)}: ${issue.message}` : issue.message };
}
