// The offline-core commands of `sitewalk`, registered on the shared program by main.ts: profile,
// site, reprocess, outbox, sync, rendering-qualities. Every one takes --data-dir and --json; see each
// file's header for its output shapes, context.ts for opening the core and ../io.ts for the exit codes.
import type { Command } from 'commander';
import type { CliIo } from '../io';
import type { CoreCommandOptions } from './context';
import { registerOutboxCommands } from './outbox';
import { registerProfileCommands } from './profile';
import { registerQualitiesCommand } from './qualities';
import { registerReprocessCommand } from './reprocess';
import { registerSiteCommands } from './site';
import { registerSyncCommand } from './sync';

export type { CoreCommandOptions } from './context';

export function registerCoreCommands(program: Command, io: CliIo, options: CoreCommandOptions = {}): void {
  registerProfileCommands(program, io, options);
  registerSiteCommands(program, io, options);
  registerReprocessCommand(program, io, options);
  registerOutboxCommands(program, io, options);
  registerSyncCommand(program, io, options);
  registerQualitiesCommand(program, io, options);
}
