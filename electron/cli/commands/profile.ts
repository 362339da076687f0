// `sitewalk profile add|use|list`: the profiles the app and the CLI share. A key given with
// --key-stdin goes to the key store (the OS keyring, or this run only when there is none: then the
// command says so); it is never printed, and never accepted as a command-line argument, which other
// users of the machine could read.
//
// JSON shapes (--json):
//   profile list  → { profiles: ProfileView[], keyStore, keyStoreNotice }
//   profile add   → { ok: true, profile: ProfileView, keySaved: boolean }
//   profile use   → { ok: true, profile: ProfileView }
// ProfileView = { id, name, baseUrl, servicePath, namespace, binding, account, builtIn, active, hasKey, keyStore }
import { Command, Option } from 'commander';
import { BINDINGS } from '../../core/service/types';
import { issuesExit, output, readAllStdin, table, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

interface AddFlags extends CommonFlags {
  baseUrl: string;
  servicePath?: string;
  namespace?: string;
  binding?: string;
  account: string;
  keyStdin?: boolean;
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
      .option('--key-stdin', 'read the API key from standard input and store it in the key store'),
  ).action(async (name: string, flags: AddFlags) => {
    let key: string | null = null;
    if (flags.keyStdin) {
      key = (await (options.readStdin ?? readAllStdin)()).replace(/\r?\n$/, '');
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
          ['', 'NAME', 'ID', 'ACCOUNT', 'BINDING', 'KEY', 'ADDRESS'],
          ...profiles.map((view) => [
            view.active ? '*' : '',
            view.name,
            view.id,
            view.account,
            view.binding,
            view.hasKey ? view.keyStore : 'none',
            view.builtIn ? 'local sandbox (started when needed)' : `${view.baseUrl}${view.servicePath}`,
          ]),
        ]),
      );
    });
  });
}
