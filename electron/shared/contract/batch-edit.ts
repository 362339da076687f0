// The batch edit's contract: set group, pin colour, height or description on many sites at once.
// The page asks for a preview (what changes per site), shows it, then applies the same input with
// the revisions the preview saw, so a site that changed in between is never overwritten unseen.
import { z } from 'zod';
import type { PinStyle } from '../domain';

const numberish = z.union([z.string().max(100), z.number()]);

/** The fields a batch may set; an absent (or blank) field is left as each site has it. */
export const batchChangeSchema = z
  .object({
    group: z.string().max(10_000).optional(),
    pinStyle: z.union([z.string().max(10), z.number()]).optional(),
    /** Whole meters, as the site form sends it (the page converts feet first). */
    height: numberish.optional(),
    description: z.string().max(10_000).optional(),
  })
  .strict();
export type BatchChange = z.infer<typeof batchChangeSchema>;

/** Largest batch: more than any account holds, small enough to preview in one answer. */
export const MAX_BATCH_SITES = 100_000;

export const batchEditInputSchema = z
  .object({
    localIds: z.array(z.string().min(1).max(200)).min(1).max(MAX_BATCH_SITES),
    change: batchChangeSchema,
    /** The revision of each site as the preview showed it: apply refuses if one moved on since. */
    revisions: z.record(z.string().max(200), z.number().int().min(0)).optional(),
  })
  .strict();
export type BatchEditInput = z.infer<typeof batchEditInputSchema>;

export type BatchField = 'group' | 'pinStyle' | 'height' | 'description';
export const BATCH_FIELDS: readonly BatchField[] = ['group', 'pinStyle', 'height', 'description'];

/** One field of one site as it is and as it would become. */
export interface BatchFieldChange {
  field: BatchField;
  from: string | number | null;
  to: string | number;
}

export interface BatchPreviewRow {
  localId: string;
  siteId: string | null;
  name: string;
  /** The site's revision the preview was made from (hand it back to apply). */
  revision: number;
  /** Empty when the site already has every value: nothing is queued for it. */
  changes: BatchFieldChange[];
  /** Why this site cannot take the change (the whole batch is refused while one has a problem). */
  problem?: string;
}

export interface BatchEditPreview {
  /** The change as it will be sent (trimmed, pin colour as its number, height in meters). */
  change: { group?: string; pinStyle?: PinStyle; height?: number; description?: string };
  rows: BatchPreviewRow[];
  summary: { sites: number; changing: number; unchanged: number; problems: number };
}

/** What apply queued: one outbox entry per changed site, all written in one transaction. */
export interface BatchEditApplied {
  queued: Array<{ localId: string; entryId: string; coalesced: boolean }>;
  unchanged: number;
}
