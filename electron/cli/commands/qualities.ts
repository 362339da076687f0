// `sitewalk rendering-qualities`: the service's rendering quality values, asked fresh and cached per
// profile; when the service cannot be asked, the cached list is shown and stderr says it is the
// cache (and from when). Exit 1 only when there is neither an answer nor a cache.
//
// JSON (--json): { items: [{ id, name, error }], fetchedAt, fromCache, problem }
import type { Command } from 'commander';
import { EXIT, fail, output, table, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

interface QualityFlags extends CommonFlags {
  cached?: boolean;
}

export function registerQualitiesCommand(program: Command, io: CliIo, options: CoreCommandOptions): void {
  withCommonOptions(
    program
      .command('rendering-qualities')
      .description('List the rendering quality values (asks the service; falls back to the cached list offline).')
      .option('--cached', 'show the cached list without asking the service'),
  ).action(async (flags: QualityFlags) => {
    await withCore(io, flags, options, async (core) => {
      const view = await core.renderingQualities({ refresh: !flags.cached });
      if (view.problem && !view.fromCache) {
        fail(io, flags, view.problem.message, { kind: view.problem.kind, detail: view.problem.detail }, EXIT.failed);
      }
      if (view.fromCache) {
        io.stderr(
          `Showing the cached list from ${view.fetchedAt}${view.problem ? ` (the service could not be asked: ${view.problem.message})` : ''}.\n`,
        );
      }
      output(io, flags, view, () => table([['ID', 'NAME'], ...view.items.map((item) => [String(item.id), item.name + (item.error ? ` (error: ${item.error})` : '')])]));
    });
  });
}
