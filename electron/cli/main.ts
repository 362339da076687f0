// The `sitewalk` command line: one commander program, run in-process by tests and through
// sitewalk.mjs by users. Contract: stdout carries exactly one JSON document per run (or help text);
// human sentences go to stderr; exit 0 = success, 1 = the call failed, 2 = usage error (nothing was
// sent). Usage errors are also printed as JSON with kind 'invalid-input', so a script reading
// stdout always gets a document and never has to scrape stderr.
import { Command, CommanderError } from 'commander';
import { invalidInput } from '../core/service/errors';
import { mayHaveBeenApplied, type CallError, type FetchLike, type InputIssue } from '../core/service/types';
import { registerCallCommand } from './call';
import { registerCoreCommands } from './commands/index';
import { registerBulkCommands } from './commands/bulk';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Transport for service calls (default: the global fetch). */
  fetch?: FetchLike;
}

/** What a command action throws to end the run with an exit code, its output already written. */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

export const EXIT_OK = 0;
export const EXIT_CALL_FAILED = 1;
export const EXIT_USAGE = 2;

export function defaultIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
  };
}

/** Writes the one JSON document of a run. */
export function printJson(io: CliIo, document: unknown): void {
  io.stdout(`${JSON.stringify(document, null, 2)}\n`);
}

/** A CallError as the CLI prints it: every field, plus whether the service may have applied it. */
export function errorDocument(error: CallError): Record<string, unknown> {
  return { ...error, mayHaveBeenApplied: mayHaveBeenApplied(error) };
}

/** Prints a usage error on both channels and ends the run with exit code 2. */
export function usageError(io: CliIo, issues: InputIssue[], extra: Record<string, unknown> = {}): never {
  const error = invalidInput(issues);
  for (const issue of issues) io.stderr(`sitewalk: ${issue.message}\n`);
  printJson(io, { ok: false, ...extra, error: errorDocument(error) });
  throw new CliExit(EXIT_USAGE);
}

export function buildProgram(io: CliIo = defaultIo()): Command {
  const program = new Command('sitewalk')
    .description('Sitewalk: tower sites, heights and EUS reprocessing on a TowerCoverage-style service.')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Parse errors are reported by main() as a sentence on stderr plus the JSON document.
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

  // ---- Offline-core commands ----
  // The offline-core CLI registers its commands here, next to `call`, with the same io and the
  // same conventions (one JSON document on stdout, CliExit for the exit code):
  // profile, site, outbox, sync, reprocess, rendering-qualities.
  registerCoreCommands(program, io);
  registerBulkCommands(program, io);

  return program;
}

/** Runs the program on argv (without "node" and the script path) and returns the exit code. */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const program = buildProgram(io);
  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    try {
      usageError(io, [{ field: 'command', message: 'No command given; see the list above.' }]);
    } catch (exit) {
      return (exit as CliExit).exitCode;
    }
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CliExit) return error.exitCode;
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT_OK;
      try {
        usageError(io, [{ field: commanderField(error), message: commanderSentence(error.message) }]);
      } catch (exit) {
        return (exit as CliExit).exitCode;
      }
    }
    // A bug, not a usage or call problem: still one JSON document, and a distinct message.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`sitewalk: internal error: ${message}\n`);
    printJson(io, { ok: false, error: { kind: 'internal', message: `Sitewalk failed unexpectedly: ${message}` } });
    return EXIT_CALL_FAILED;
  }
}

function commanderSentence(message: string): string {
  const text = message.replace(/^error:\s*/i, '').trim();
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return `${sentence}${/[.!?]$/.test(sentence) ? '' : '.'} Run "sitewalk <command> --help" for usage.`;
}

function commanderField(error: CommanderError): string {
  const option = /'(--[a-z-]+)/.exec(error.message);
  if (option) return option[1]!.replace(/^--/, '');
  if (/argument/i.test(error.message)) return /'([a-z-]+)'/.exec(error.message)?.[1] ?? 'argument';
  return 'command';
}
