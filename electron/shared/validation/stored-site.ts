// A site edit as Sitewalk stores it (the outbox entry's payload, the register's known fields and
// drafts): the one schema both stores read through. It checks shape and kind only — the rules a
// user's input must pass (ranges, units, lengths) are in ./site.ts and ran before anything was
// stored; a stored value is read back as it was written.
import { z } from 'zod';
import { PIN_STYLES } from '../domain';
import { measurementSchema } from './measurement';

export const storedSiteEditSchema = z.object({
  siteId: z.string().optional(),
  name: z.string().optional(),
  height: z.number(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  description: z.string().optional(),
  group: z.string().optional(),
  pinStyle: z.literal(PIN_STYLES).optional(),
  // How a receiver measured the position: kept as given, never sent (./measurement.ts).
  measurement: measurementSchema.optional(),
});

/** The register's fields of a site: every field of an edit but the service's ID, each optional. */
export const storedSiteFieldsSchema = storedSiteEditSchema.omit({ siteId: true }).partial();
