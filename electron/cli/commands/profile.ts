// `sitewalk profile add|edit|use|list|test`: the profiles the app and the CLI share. A key given with
// --key-stdin goes to the key store (the OS keyring, or this run only when there is none: then the
// command says so); it is never printed, and never accepted as a command-line argument, which other
// users of the machine could read.
//
// Binding fallback (on by default; --no-binding-fallback on add, --binding-fallback on|off on edit):
// a call the service's ASP.NET front would refuse over HTTP GET/POST (markup-like text, a GET query
// over 2,048 characters) goes over SOAP 1.1 (or HTTP POST) instead, and the outbox entry says so.
//
// `profile test [name]` checks the profile (the active one by default): the service description (no
// API call), the account and key with one GetRenderingQualityList call (it says so), and which
// bindings answer (requests the service refuses before any operation: no API call; --every-binding
// makes the real call over the other three, up to 3 more API calls). Exit 0 when the service answers
// and accepted the account and key, 1 otherwise.
//
// JSON shapes (--json):
//   profile list  → { profiles: ProfileView[], keyStore, keyStoreNotice }
//   profile add   → { ok: true, profile: ProfileView, keySaved: boolean }
//   profile edit  → { ok: true, profile: ProfileView }
//   profile use   → { ok: true, profile: ProfileView }
//   profile test  → { ok: boolean, test: ConnectionTestView }
// ProfileView = { id, name, baseUrl, servicePath, namespace, binding, account, builtIn, active, hasKey, keyStore, bindingFallback }
import { Command, Option } from 'commander';
import { BINDINGS } from '../../core/service/types';
import type { ConnectionTestView } from '../../core/open-core';
import { BINDING_NAMES } from '../../shared/aspnet';
import { CliExit, EXIT, issuesExit, output, table, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

interface AddFlags extends CommonFlags {
  baseUrl: string;
  servicePath?: string;
  namespace?: string;
  binding?: string;
  account: string;
  keyStdin?: boolean;
  /** false with --no-binding-fallback. */
  bindingFallback: boolean;
}

interface EditFlags extends CommonFlags {
  rename?: string;
  baseUrl?: string;
  servicePath?: string;
  namespace?: string;
  binding?: string;
  account?: string;
  bindingFallback?: string;
}

interface TestFlags extends CommonFlags {
  everyBinding?: boolean;
}

export function registerProfileCommands(program: Command, io: CliIo, options: CoreCommandOptions): void {
  const profile = program.command('profile').description('Manage profiles: where calls go and as which account.');

  withCommonOptions(
    profile
      .command('add')
      .description('Add a profile (it does not become active; see "profile use").')
      .argument('<name>', 'profile name, unique')
      .requiredOption('--base-url <url>', 'service base URL, e.g. https://api.towercoverage.com')
      .option('--service-path <path>', 'service path (default /towercoverage.asmx)')
      .option('--namespace <ns>', 'SOAP namespace (default http://tempuri.org/)')
      .addOption(new Option('--binding <binding>', 'protocol binding (default http-post)').choices(BINDINGS))
      .requiredOption('--account <id>', 'account ID')
      .option('--key-stdin', 'read the API key from standard input and store it in the key store')
      .option(
        '--no-binding-fallback',
        'never send a call over another binding: what the service\'s ASP.NET front refuses over HTTP GET/POST (markup-like text, a long GET query) fails as rejected input',
      ),
  ).action(async (name: string, flags: AddFlags) => {
    let key: string | null = null;
    if (flags.keyStdin) {
      key = (await (io.stdin?.() ?? Promise.resolve(''))).replace(/\r?\n$/, '');
      if (key.trim() === '') issuesExit(io, flags, [{ field: 'key', message: '--key-stdin was given but standard input was empty; pipe the key in, e.g. from a password manager.' }]);
    }
    await withCore(io, flags, options, async (core) => {
      const added = await core.profiles.add({
        name,
        baseUrl: flags.baseUrl,
        servicePath: flags.servicePath,
        namespace: flags.namespace,
        binding: flags.binding,
        account: flags.account,
        bindingFallback: flags.bindingFallback,
      });
      if (!added.ok) issuesExit(io, flags, added.issues);
      let view = added.value;
      let keySaved = false;
      if (key !== null) {
        const stored = await core.profiles.setKey(view.id, key);
        if (!stored.ok) {
          // The profile stays: the key can be added again; say what happened to the key.
          io.stderr(`sitewalk: the profile was added, but its key was not stored: ${stored.issues.map((issue) => issue.message).join(' ')}\n`);
        } else {
          view = stored.value;
          keySaved = view.keyStore !== 'session-only';
          if (!keySaved) {
            io.stderr(
              `sitewalk: ${core.keyStoreNotice ?? 'There is no key store on this machine.'} Set SITEWALK_KEY for each run instead.\n`,
            );
          }
        }
      }
      io.stderr(`Added profile "${view.name}" (${view.id}). Make it active with: sitewalk profile use "${view.name}"\n`);
      output(io, flags, { ok: true, profile: view, keySaved }, () => view.id);
    });
  });

  withCommonOptions(
    profile
      .command('edit')
      .description('Change a profile (by name or ID); options not given keep their value.')
      .argument('<name>', 'profile name or ID')
      .option('--rename <name>', 'a new name for the profile')
      .option('--base-url <url>', 'service base URL (another server forgets the saved key)')
      .option('--service-path <path>', 'service path')
      .option('--namespace <ns>', 'SOAP namespace')
      .addOption(new Option('--binding <binding>', 'protocol binding').choices(BINDINGS))
      .option('--account <id>', 'account ID')
      .addOption(
        new Option('--binding-fallback <on|off>', 'send what the service\'s ASP.NET front refuses over HTTP GET/POST over SOAP 1.1 (or HTTP POST) instead').choices(['on', 'off']),
      ),
  ).action(async (name: string, flags: EditFlags) => {
    await withCore(io, flags, options, async (core) => {
      const current = await core.profiles.get(name);
      if (!current) issuesExit(io, flags, [{ field: 'profile', message: `There is no profile "${name}". Run "sitewalk profile list" to see them.` }]);
      const updated = await core.profiles.update(current.id, {
        ...(flags.rename !== undefined ? { name: flags.rename } : {}),
        ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
        ...(flags.servicePath !== undefined ? { servicePath: flags.servicePath } : {}),
        ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
        ...(flags.binding !== undefined ? { binding: flags.binding } : {}),
        ...(flags.account !== undefined ? { account: flags.account } : {}),
        ...(flags.bindingFallback !== undefined ? { bindingFallback: flags.bindingFallback === 'on' } : {}),
      });
      if (!updated.ok) issuesExit(io, flags, updated.issues);
      const view = updated.value;
      if (current.hasKey && !view.hasKey) io.stderr('sitewalk: the profile now points at another server, so its saved API key was forgotten; add it again.\n');
      io.stderr(`Changed profile "${view.name}".\n`);
      output(io, flags, { ok: true, profile: view }, () => view.id);
    });
  });

  withCommonOptions(
    profile
      .command('test')
      .description('Test a profile\'s connection (the active one by default): the service, the account and key (one API call), the bindings.')
      .argument('[name]', 'profile name or ID (default: the active profile)')
      .option('--every-binding', 'also call GetRenderingQualityList over the other three bindings (up to 3 more API calls)'),
  ).action(async (name: string | undefined, flags: TestFlags) => {
    await withCore(io, flags, options, async (core) => {
      const target = name ?? (await core.profiles.active()).id;
      const tested = await core.profiles.test(target, flags.everyBinding ? { everyBinding: true } : {});
      if (!tested.ok) issuesExit(io, flags, tested.issues);
      const test = tested.value;
      output(io, flags, { ok: test.ok, test }, () => describeTest(test));
      if (!test.ok) throw new CliExit(EXIT.failed);
    });
  });

  withCommonOptions(
    profile.command('use').description('Make a profile the active one (by name or ID).').argument('<name>', 'profile name or ID'),
  ).action(async (name: string, flags: CommonFlags) => {
    await withCore(io, flags, options, async (core) => {
      const used = await core.profiles.use(name);
      if (!used.ok) issuesExit(io, flags, used.issues);
      const view = used.value;
      if (!view.hasKey) io.stderr(`sitewalk: profile "${view.name}" has no API key yet; add one, or set SITEWALK_KEY when you sync.\n`);
      io.stderr(`Active profile: ${view.name}\n`);
      output(io, flags, { ok: true, profile: view }, () => view.id);
    });
  });

  withCommonOptions(profile.command('list').description('List the profiles; the active one is marked with *.')).action(async (flags: CommonFlags) => {
    await withCore(io, flags, options, async (core) => {
      const profiles = await core.profiles.list();
      if (core.keyStoreNotice) io.stderr(`sitewalk: ${core.keyStoreNotice}\n`);
      output(io, flags, { profiles, keyStore: core.keyStoreKind, keyStoreNotice: core.keyStoreNotice }, () =>
        table([
          ['', 'NAME', 'ID', 'ACCOUNT', 'BINDING', 'KEY', 'FALLBACK', 'ADDRESS'],
          ...profiles.map((view) => [
            view.active ? '*' : '',
            view.name,
            view.id,
            view.account,
            view.binding,
            view.hasKey ? view.keyStore : 'none',
            view.bindingFallback ? 'on' : 'off',
            view.builtIn ? 'local sandbox (started when needed)' : `${view.baseUrl}${view.servicePath}`,
          ]),
        ]),
      );
    });
  });
}

const MARKS = { passed: 'ok  ', failed: 'FAIL', skipped: '--  ' } as const;

/** A connection test as lines a person reads: each step, each binding, what it cost. */
export function describeTest(test: ConnectionTestView): string {
  const lines = [
    `${MARKS[test.reachability.outcome]} service:     ${test.reachability.message}`,
    `${MARKS[test.credentials.outcome]} account/key: ${test.credentials.message}`,
    ...test.bindings.map((check) => {
      const mark = check.answers === true ? 'ok  ' : check.answers === false ? 'no  ' : '?   ';
      const wsdl = check.inWsdl === null ? '' : check.inWsdl ? ' [in WSDL]' : ' [not in WSDL]';
      return `${mark} ${BINDING_NAMES[check.binding].padEnd(9)}${wsdl}: ${check.message}`;
    }),
    `API calls used: ${test.apiCallsUsed}`,
  ];
  return lines.join('\n');
}
