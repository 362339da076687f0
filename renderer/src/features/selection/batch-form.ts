// The batch edit form's fields → the change the host previews and applies. Height is typed in the
// user's unit (or with "ft"/"m") and read by the form's own height reader; a blank field changes
// nothing. Pure, so the rules are tested without a page.
import type { BatchChange } from '../../../../electron/shared/contract/index';
import type { HeightUnit, PinStyle } from '../../../../electron/shared/domain';
import { readHeight } from '../../shared/units';

export interface BatchFormFields {
  group: string;
  /** '' leaves every site's colour as it is. */
  pinStyle: '' | `${PinStyle}`;
  height: string;
  description: string;
}

export const EMPTY_BATCH_FORM: BatchFormFields = { group: '', pinStyle: '', height: '', description: '' };

export const PIN_COLOUR_LABELS: Record<BatchFormFields['pinStyle'], string> = { '': 'Leave as it is', 1: 'Red', 2: 'Blue', 3: 'Orange', 4: 'Green' };

/** The change to send, or the height's own message when it cannot be read. */
export function batchChangeOf(fields: BatchFormFields, unit: HeightUnit): { change: BatchChange; heightError: string | null } {
  const change: BatchChange = {};
  if (fields.group.trim() !== '') change.group = fields.group;
  if (fields.description.trim() !== '') change.description = fields.description;
  if (fields.pinStyle !== '') change.pinStyle = Number(fields.pinStyle);
  let heightError: string | null = null;
  if (fields.height.trim() !== '') {
    const reading = readHeight(fields.height, unit);
    if (reading.message) heightError = reading.message;
    else change.height = reading.schemaInput;
  }
  return { change, heightError };
}
