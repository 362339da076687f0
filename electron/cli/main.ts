// The `sitewalk` command line: one commander program, run in-process by tests and through
// sitewalk.mjs by users. Contract: with --json (and for `call`, always) stdout carries exactly one
// JSON document per run; otherwise human text (or help, or the version) on stdout; human sentences go
// to stderr; exit 0 = success, 1 = the call failed, 2 = usage error (nothing was sent). A usage error
// is a sentence on stderr, and with --json also the JSON document with kind 'invalid-input', so a
// script reading stdout always gets a document and never has to scrape stderr.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerCallCommand } from './call';
import { registerBulkCommands, type BulkCommandOptions } from './commands/bulk';
import { registerCoreCommands } from './commands/index';
import type { InputIssue } from '../core/service/types';
import { CliExit, defaultIo, EXIT, issuesExit, printJson, type CliIo } from './io';

export type { CliIo } from './io';

/**
 * What a caller other than the `sitewalk` executable may set: options for the core each command opens
 * (an embedding host's secret store, a sandbox starter) and how a bulk run is cancelled (default: the
 * first Ctrl-C).
 */
export type CliOptions = BulkCommandOptions;

export function buildProgram(io: CliIo = defaultIo(), options: CliOptions = {}): Command {
  const program = new Command('sitewalk')
    .description('Sitewalk: tower sites, heights and EUS reprocessing on a TowerCoverage-style service.')
    .version(sitewalkVersion(), '-V, --version', 'print the version')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Parse errors are reported by main() as a sentence on stderr (and the JSON document with --json).
      outputError: () => undefined,
    })
    // Also accepted before the command (`sitewalk --data-dir D site list`); each command reads them
    // from its own options, where the hook below puts them.
    .option('--data-dir <dir>', 'where profiles, sites and the outbox are kept (every command; default $SITEWALK_DATA_DIR, else the OS config folder)')
    .option('--json', 'print one JSON document on stdout (every command)')
    .hook('preAction', (_program, command) => {
      const globals = command.optsWithGlobals();
      for (const name of ['dataDir', 'json'] as const) {
        if (command.getOptionValue(name) === undefined && globals[name] !== undefined) command.setOptionValue(name, globals[name]);
      }
    });

  registerCallCommand(program, io);

  // The offline-core commands (profile, site, outbox, sync, reprocess, rendering-qualities) and the
  // bulk ones, with the same io and conventions (io.ts).
  registerCoreCommands(program, io, options);
  registerBulkCommands(program, io, options);

  return program;
}

/**
 * Runs the program on argv (without "node" and the script path) and returns the exit code; it never
 * exits the process, so it runs as well inside another program (tests call it so) as in sitewalk.mjs.
 * Everything it reads from outside comes through `io` (environment, stdin) and the options.
 */
export async function main(argv: string[], io: CliIo = defaultIo(), options: CliOptions = {}): Promise<number> {
  const program = buildProgram(io, options);
  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    return usageExit(io, false, [{ field: 'command', message: 'No command given; see the list above.' }]);
  }
  // Which command's options or arguments were wrong, to name it in the sentence.
  let failing: Command = program;
  for (const command of everyCommand(program)) {
    command.exitOverride((error) => {
      failing = command;
      throw error;
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliExit) return error.exitCode;
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      // `call` prints its outcome as a JSON document always; every other command only with --json.
      const json = wantsJson(argv) || commandPath(failing).startsWith('call');
      return usageExit(io, json, [{ field: commanderField(error), message: commanderSentence(error.message, failing) }]);
    }
    // A bug, not a usage or call problem: still one JSON document, and a distinct message.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`sitewalk: internal error: ${message}\n`);
    printJson(io, { ok: false, error: { kind: 'internal', message: `Sitewalk failed unexpectedly: ${message}` } });
    return EXIT.failed;
  }
}

/** A usage error said (a sentence on stderr; the JSON document too when asked for): exit 2. */
function usageExit(io: CliIo, json: boolean, issues: InputIssue[]): number {
  try {
    issuesExit(io, { json }, issues);
  } catch (exit) {
    if (exit instanceof CliExit) return exit.exitCode;
    throw exit;
  }
}

/** Whether --json is among the words before a `--`. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

/** "profile add" for that command, '' for the program itself. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The version in package.json (beside this file's folder's folder, as beside out/cli/ for the bundle). */
function sitewalkVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function commanderSentence(message: string, command: Command): string {
  const text = message.replace(/^error:\s*/i, '').trim();
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  const path = commandPath(command);
  return `${sentence}${/[.!?]$/.test(sentence) ? '' : '.'} Run "sitewalk ${path ? `${path} ` : ''}--help" for usage.`;
}

function commanderField(error: CommanderError): string {
  const option = /'(--[a-z-]+)/.exec(error.message);
  if (option) return option[1]!.replace(/^--/, '');
  if (/argument/i.test(error.message)) return /'([a-z-]+)'/.exec(error.message)?.[1] ?? 'argument';
  return 'command';
}
