// How every `sitewalk` command talks and ends: one JSON document on stdout with --json (or for
// `call`, always), human text on stdout otherwise, sentences on stderr, and the exit code carried by
// a thrown CliExit once the output is written. This module imports nothing from the CLI, so any file
// of it can use these helpers without an import cycle.
import { invalidInput } from '../core/service/errors';
import { mayHaveBeenApplied, type CallError, type FetchLike, type InputIssue } from '../core/service/types';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Transport for service calls (default: the global fetch). */
  fetch?: FetchLike;
  /** All of standard input as text, read only when a command asks for it (--key-stdin). Absent: empty. */
  stdin?: () => Promise<string>;
  /** Whether stderr is a terminal: bulk progress is drawn only then. Absent: it is not. */
  stderrIsTty?: boolean;
}

/**
 * Exit codes. 0, 1 and 2 mean the same for every command; 3 to 6 are `sync`'s (the bulk commands
 * have their own 3, see BULK_EXIT).
 */
export const EXIT = {
  ok: 0,
  /** The call or operation failed (the service refused, the data folder is in use or cannot be written). */
  failed: 1,
  /** Bad input: nothing was sent, queued or changed. */
  usage: 2,
  /** sync: some entries failed or need review; they wait for the user. */
  attention: 3,
  /** sync: the profile is paused (quota used up, key refused) or has no key. */
  paused: 4,
  /** sync: the service could not be reached; entries are still queued. */
  offline: 5,
  /** sync (one pass): some entries wait to be sent again after a failure that may pass (a retry backoff). */
  waiting: 6,
} as const;

/** What a command action throws to end the run with an exit code, its output already written. */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/** The output flags every offline-core command takes (see withCommonOptions in commands/context.ts). */
export interface CommonFlags {
  dataDir?: string;
  json?: boolean;
}

/**
 * Who sends what a command queued, truthfully: the app when one has the data folder open (it sends
 * at once), else `sitewalk sync` (core.sync.otherSender() tells which).
 */
export function whoSends(appOpen: boolean): string {
  return appOpen ? 'The app sends it (it has this data folder open); or run "sitewalk sync".' : 'Run "sitewalk sync" to send it.';
}

/** The exit code of a command whose output was closed under it (`| head`): as if ended by SIGPIPE, 128 + 13. */
export const CLOSED_OUTPUT_EXIT = 141;

let closedOutputQuits = false;

/**
 * A reader that stops reading (`sitewalk import … --json | head -3`) ends the command at once and
 * quietly, exit 141, as SIGPIPE ends other command-line tools: Node ignores that signal, so the next
 * write failed with EPIPE, an unhandled error with its stack trace. Other write errors stay errors.
 */
function quitWhenOutputCloses(): void {
  if (closedOutputQuits) return;
  closedOutputQuits = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(CLOSED_OUTPUT_EXIT);
    });
  }
}

export function defaultIo(): CliIo {
  quitWhenOutputCloses();
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    stdin: readAllStdin,
    stderrIsTty: process.stderr.isTTY === true,
  };
}

/** Writes the one JSON document of a run. */
export function printJson(io: CliIo, document: unknown): void {
  io.stdout(`${JSON.stringify(document, null, 2)}\n`);
}

/**
 * printJson for a document with a `rows` list too long to hold (a dry run of a million rows): the
 * rows are written a batch at a time where the list goes, in printJson's layout.
 */
export async function printJsonWithRows(io: CliIo, document: Record<string, unknown>, rows: AsyncIterable<unknown[]>): Promise<void> {
  const MARK = '\u0000rows\u0000';
  const [before, after] = JSON.stringify({ ...document, rows: MARK }, null, 2).split(JSON.stringify(MARK));
  io.stdout(`${before}[`);
  let first = true;
  for await (const batch of rows) {
    if (batch.length === 0) continue;
    const items = batch.map((row) => `    ${JSON.stringify(row, null, 2).replace(/\n/g, '\n    ')}`).join(',\n');
    io.stdout(`${first ? '\n' : ',\n'}${items}`);
    first = false;
  }
  io.stdout(`${first ? ']' : '\n  ]'}${after}\n`);
}

/** A CallError as the CLI prints it: every field, plus whether the service may have applied it. */
export function errorDocument(error: CallError): Record<string, unknown> {
  return { ...error, mayHaveBeenApplied: mayHaveBeenApplied(error) };
}

/** Prints a usage error on both channels (the JSON document always) and ends the run with exit code 2. */
export function usageError(io: CliIo, issues: InputIssue[], extra: Record<string, unknown> = {}): never {
  const error = invalidInput(issues);
  for (const issue of issues) io.stderr(`sitewalk: ${issue.message}\n`);
  printJson(io, { ok: false, ...extra, error: errorDocument(error) });
  throw new CliExit(EXIT.usage);
}

/** Ends the run with the input's issues: exit 2, nothing queued; the JSON document only with --json. */
export function issuesExit(io: CliIo, flags: CommonFlags, issues: InputIssue[]): never {
  if (flags.json) usageError(io, issues);
  for (const issue of issues) io.stderr(`sitewalk: ${issue.message}\n`);
  throw new CliExit(EXIT.usage);
}

/** Ends the run with a failure sentence: exit 1 (or the code given). */
export function fail(io: CliIo, flags: CommonFlags, message: string, extra: Record<string, unknown> = {}, code: number = EXIT.failed): never {
  io.stderr(`sitewalk: ${message}\n`);
  if (flags.json) printJson(io, { ok: false, error: { message, ...extra } });
  throw new CliExit(code);
}

/** Prints the command's result: the JSON document with --json, else the human text. */
export function output(io: CliIo, flags: CommonFlags, document: unknown, human: () => string): void {
  if (flags.json) printJson(io, document);
  else {
    const text = human();
    if (text !== '') io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** Columns padded to their widest cell, for human tables. */
export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd()).join('\n');
}

/** Reads all of stdin as text. */
export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
