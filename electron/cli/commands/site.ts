// `sitewalk site add|edit|list`: queue a new site or an edit in the outbox (durably, before the
// command returns; nothing is sent until `sitewalk sync`), and list the sites the register knows.
// Input goes through the same schema as the app's form: a bad value is refused with a sentence and
// exit 2, and nothing is queued.
//
// Human output: `site add` prints the new site's local ID alone, `site edit` its local ID, so a
// script can capture it. JSON shapes (--json):
//   site add|edit → { ok: true, site: SiteView, entry: OutboxEntryView, coalesced: boolean }
//   site add --site-id → { ok: true, site: SiteView } (nothing is queued)
//   site list     → { sites: SiteView[] }
// SiteView = { localId, siteId, profileId, origin, name, height, latitude, longitude, description,
//              group, pinStyle, measurement (how a receiver measured the position, or null),
//              syncState, lastError, queued, createdAt, updatedAt }
import type { Command } from 'commander';
import type { InputIssue } from '../../shared/domain';
import type { SiteEditInput } from '../../shared/validation/index';
import { readCoordinateCell } from '../../shared/validation/coordinates';
import { readHeightText } from '../../shared/validation/height';
import { entryLine } from '../../shared/outbox-line';
import { issuesExit, output, table, whoSends, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

interface SiteFlags extends CommonFlags {
  siteId?: string;
  lat?: string;
  lon?: string;
  height?: string;
  name?: string;
  group?: string;
  description?: string;
  pinStyle?: string;
}

function siteOptions(command: Command): Command {
  return withCommonOptions(
    command
      .option('--lat <degrees>', 'latitude: decimal degrees (--lat=-33.9 for a negative value), a decimal comma, or DMS like 40°26\'46"N')
      .option('--lon <degrees>', 'longitude: decimal degrees (--lon=-93.1 for a negative value), a decimal comma, or DMS like 79°58\'56"W')
      .option('--height <height>', 'tower height in meters ("30", "30.6"), or with its unit ("52 ft", "15.8 m"); rounded to whole meters, said on stderr')
      .option('--name <name>', 'site name')
      .option('--group <group>', 'group')
      .option('--description <text>', 'description')
      .option('--pin-style <1-4>', 'pin colour: 1 red, 2 blue, 3 orange, 4 green'),
  );
}

/** Which field of the form each flag fills (`--lat` is the latitude…). */
const FIELD_OF_FLAG = {
  lat: 'latitude',
  lon: 'longitude',
  height: 'height',
  name: 'name',
  group: 'group',
  description: 'description',
  pinStyle: 'pinStyle',
} as const satisfies Record<keyof Omit<SiteFlags, keyof CommonFlags | 'siteId'>, keyof SiteEditInput>;

/**
 * The form's input from the flags given; a flag left out leaves its field unchanged. Coordinates and
 * heights go through the form's and the import's reader first (DMS, decimal commas, "52 ft").
 */
function inputFrom(io: CliIo, flags: SiteFlags): SiteEditInput {
  const input: SiteEditInput = {};
  const issues: InputIssue[] = [];
  for (const [flag, field] of Object.entries(FIELD_OF_FLAG) as Array<[keyof typeof FIELD_OF_FLAG, keyof SiteEditInput]>) {
    const value = flags[flag];
    if (value === undefined) continue;
    if (field === 'latitude' || field === 'longitude') {
      const read = readCoordinateCell(value, field === 'latitude' ? 'lat' : 'lon');
      if (read.ok) input[field] = read.value;
      else issues.push({ field, message: `--${flag} "${value}": ${read.message}` });
    } else if (field === 'height') {
      const read = readHeightText(value, 'm');
      if (read.message) issues.push({ field, message: read.message });
      input.height = read.schemaInput;
      if (read.meters !== null && (read.feet !== null || read.roundedFrom !== null)) io.stderr(`Height ${value.trim()} is sent as ${read.meters} m (the service stores whole meters).\n`);
    } else {
      input[field] = value;
    }
  }
  if (issues.length > 0) issuesExit(io, flags, issues);
  return input;
}

export function registerSiteCommands(program: Command, io: CliIo, options: CoreCommandOptions): void {
  const site = program.command('site').description('Create, edit and list tower sites (queued in the outbox; "sitewalk sync" sends them).');

  siteOptions(site.command('add').description('Queue a new site, or add one the service already has by its site ID; prints its local ID.'))
    .option('--site-id <id>', 'a site the service already has, by its ID (the app\'s "Add by site ID"): added to the list, nothing sent; the other options are what you know of it')
    .addHelpText('after', '\nRequired: --lat, --lon and --height, unless --site-id names a site the service already has.')
    .action(async (flags: SiteFlags) => {
      await withCore(io, flags, options, async (core) => {
        if (flags.siteId !== undefined) {
          const added = await core.sites.addExisting(flags.siteId, inputFrom(io, flags));
          if (!added.ok) issuesExit(io, flags, added.issues);
          io.stderr(`Added site ${added.value.siteId} as ${added.value.localId}; nothing was sent. Change it with "sitewalk site edit ${added.value.siteId} …".\n`);
          output(io, flags, { ok: true, site: added.value }, () => added.value.localId);
          return;
        }
        const saved = await core.sites.save(inputFrom(io, flags));
        if (!saved.ok) issuesExit(io, flags, saved.issues);
        const { site: view, entry } = saved.value;
        io.stderr(`Queued: ${entry.summary} as ${view.localId} (outbox entry ${entry.id}). ${whoSends(core.sync.otherSender())}\n`);
        output(io, flags, { ok: true, ...saved.value }, () => view.localId);
      });
    });

  siteOptions(
    site
      .command('edit')
      .description('Queue an edit of a site in the list, by its local ID or its service site ID; give only what changes.')
      .argument('<id>', 'local ID (local-…) or the service\'s site ID'),
  ).action(async (id: string, flags: SiteFlags) => {
    await withCore(io, flags, options, async (core) => {
      const known = core.sites.get(id);
      if (!known && /^local-/.test(id.trim())) {
        issuesExit(io, flags, [{ field: 'id', message: `There is no site with the local ID "${id}" in this profile; see "sitewalk site list".` }]);
      }
      // An ID the list does not know would be sent as it is, cost an API call and come back "not
      // found" if it is a typo: a site the service has is added by its ID first, as in the app.
      if (!known) {
        const shown = /^[\w.-]+$/.test(id.trim()) ? id.trim() : JSON.stringify(id.trim());
        issuesExit(io, flags, [
          { field: 'id', message: `There is no site ${shown} in this profile's list ("sitewalk site list"). If the service has it, add it by its ID first: sitewalk site add --site-id ${shown} (the app's "Add by site ID").` },
        ]);
      }
      const saved = await core.sites.save({ ...inputFrom(io, flags), localId: known.localId });
      if (!saved.ok) issuesExit(io, flags, saved.issues);
      const { site: view, entry, coalesced } = saved.value;
      io.stderr(`${coalesced ? 'Merged into the queued' : 'Queued'}: ${entryLine(entry.summary, view.name)} (outbox entry ${entry.id}). ${whoSends(core.sync.otherSender())}\n`);
      output(io, flags, { ok: true, ...saved.value }, () => view.localId);
    });
  });

  withCommonOptions(site.command('list').description('List the sites of the active profile with their sync state.')).action(async (flags: CommonFlags) => {
    await withCore(io, flags, options, async (core) => {
      const sites = core.sites.list();
      output(io, flags, { sites }, () =>
        sites.length === 0
          ? ''
          : table([
              ['LOCAL ID', 'SITE ID', 'NAME', 'HEIGHT', 'LAT', 'LON', 'STATE'],
              ...sites.map((view) => [
                view.localId,
                view.siteId ?? '-',
                view.name || '-',
                view.height === null ? '-' : `${view.height} m`,
                view.latitude === null ? '-' : String(view.latitude),
                view.longitude === null ? '-' : String(view.longitude),
                view.syncState + (view.lastError ? `: ${view.lastError.message}` : ''),
              ]),
            ]),
      );
      if (sites.length === 0) io.stderr('No sites yet. Add one with "sitewalk site add".\n');
    });
  });
}
