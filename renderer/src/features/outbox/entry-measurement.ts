// The measurement an outbox entry carries, checked: the entry's payload comes from the host as data.
// With the outbox panel, not the location feature's words (gate-view.ts), so that the schema and zod
// load with the panel and stay out of the first screen (renderer/vite.config.ts).
import type { OutboxEntryView } from '../../../../electron/shared/contract/index';
import { measurementSchema, type SiteMeasurement } from '../../../../electron/shared/validation/measurement';

/** The entry's measurement, or null when it has none or it is not one. */
export function entryMeasurement(entry: Pick<OutboxEntryView, 'payload'>): SiteMeasurement | null {
  const parsed = measurementSchema.safeParse(entry.payload['measurement']);
  return parsed.success ? parsed.data : null;
}
