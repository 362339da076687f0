// The schema's history, oldest first: migration N brings a database from user_version N-1 to N.
// Each runs once, inside the transaction that sets the new user_version; a migration, once
// released, is never edited (a change is a new one at the end).
import { INITIAL } from './001-initial';
import { SITE_MEASUREMENT } from './002-site-measurement';

export const MIGRATIONS: readonly string[] = [INITIAL, SITE_MEASUREMENT];

/** The schema this Sitewalk writes; a database with a higher user_version is from a newer one. */
export const SCHEMA_VERSION = MIGRATIONS.length;
