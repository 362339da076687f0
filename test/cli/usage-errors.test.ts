// What `sitewalk` says when it is used wrongly (commander's own errors: an unknown option, command or
// choice, a missing argument or required option): a sentence on stderr naming the command's help,
// exit 2, and stdout empty unless --json asks for the JSON document. And --version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { ROOT, sitewalkInTempHome, startSitewalk } from '../support/cli';

const runCli = sitewalkInTempHome();
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const WRONG: Array<[args: string[], sentence: RegExp, help: string]> = [
  [['outbox', '--bogus'], /^Unknown option '--bogus'\./, 'outbox'],
  [['import'], /^Missing required argument 'file'\./, 'import'],
  [['export', '--format', 'xml'], /^Option '--format <format>' argument 'xml' is invalid\./, 'export'],
  [['frob'], /^Unknown command 'frob'\./, ''],
  [['reprocess-bulk', 'eus.csv'], /^Required option '--multi-map <id>' not specified\./, 'reprocess-bulk'],
  [['profile', 'add', 'Office'], /^Required option '--base-url <url>' not specified\./, 'profile add'],
];

describe('usage errors', { timeout: 120_000 }, () => {
  it('are one sentence on stderr naming the command to ask for help, nothing on stdout, exit 2', async ({ tempDir }) => {
    for (const [args, sentence, help] of WRONG) {
      const run = await runCli([...args, '--data-dir', tempDir]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      const said = run.stderr.trimEnd().split('\n');
      expect(said, args.join(' ')).toHaveLength(1);
      expect(said[0]!.replace(/^sitewalk: /, ''), args.join(' ')).toMatch(sentence);
      expect(said[0], args.join(' ')).toMatch(new RegExp(` Run "sitewalk ${help ? `${help} ` : ''}--help" for usage\\.$`));
    }
  });

  it('are also the JSON document on stdout with --json, before or after the command', async ({ tempDir }) => {
    for (const args of [['outbox', '--bogus', '--json'], ['--json', 'frob'], ['import', '--json']]) {
      const run = await runCli([...args, '--data-dir', tempDir]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.json, args.join(' ')).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
  });

  it('no command: the command list and a sentence on stderr, nothing on stdout', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/import \[options\] <file>[\s\S]*No command given/);
    expect(run.stdout).toBe('');
  });
});

describe('--version', { timeout: 120_000 }, () => {
  it('prints the version on stdout and exits 0, in process and as the executable', async ({ tempDir }) => {
    const run = await runCli(['--version']);
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const executable = await startSitewalk(tempDir, ['--version']).done;
    expect({ code: executable.code, stdout: executable.stdout }).toEqual({ code: 0, stdout: `${VERSION}\n` });
  });
});
