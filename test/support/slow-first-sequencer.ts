// The order test files start in. A group's workers take files one by one, so the group ends when its
// last file does: a long file that starts late keeps the whole run waiting while the other workers
// are idle. Starting the longest first (the LPT rule) avoids that. Vitest orders by the durations of
// the last run, which a fresh clone (CI) does not have: it then falls back to file size, a poor guide
// (e2e/bulk.test.ts started fifth). So the files known to be slowest — from the slowest-files table
// `npm test` prints at its end — start first, in this order, whatever project of their group they
// belong to (heavy and e2e share one); every other file keeps Vitest's order. A stale entry costs
// nothing but order: update the list from that table.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Slowest first (the groups still run one after the other, each in this order). */
export const KNOWN_SLOW_FILES = [
  // The slow group: heavy and e2e side by side, longest first whatever the project (their times in a
  // fresh-clone run, session 12, with the e2e files as about ten journeys). e2e/bulk's page waits as
  // long as queueing 10,000 rows may take beside the heavy runs, so it need not start apart from them.
  'test/bulk/cli-streamed-csv.heavy.test.ts',
  'test/e2e/bulk.test.ts',
  'test/bulk/cli-streamed-kml.heavy.test.ts',
  'test/bulk/hostile-kml.heavy.test.ts',
  'test/core/many-processes.heavy.test.ts',
  'test/cli/import-sigkill.heavy.test.ts',
  'test/e2e/layout.test.ts',
  'test/e2e/sites.test.ts',
  'test/bulk/apply-sandbox.test.ts',
  'test/e2e/a11y.test.ts',
  'test/e2e/location.test.ts',
  'test/bulk/hostile-imports.heavy.test.ts',
  'test/e2e/own-service.test.ts',
  'test/e2e/eus.test.ts',
  'test/e2e/truth.test.ts',
  'test/bulk/big-upload.heavy.test.ts',
  'test/release/pack.test.ts',
  'test/basemaps/hostile-files.heavy.test.ts',
  'test/e2e/map-50k.test.ts',
  'test/bulk/kml-bounds.heavy.test.ts',
  'test/core/crash.test.ts',
  'test/e2e/basemaps.test.ts',
  'test/e2e/status-truth.test.ts',
  'test/e2e/first-run.test.ts',
  'test/bulk/cli-large-csv.heavy.test.ts',
  // The fast group: unit (and components, one page for all its files, beside them).
  'test/gps/gpsd.test.ts',
  'test/host/start.test.ts',
  'test/basemaps/mbtiles-process.test.ts',
  'test/bulk/host-session.test.ts',
  'test/bulk/preview-store.test.ts',
  'test/bulk/cli.test.ts',
  'test/host/browser-host.test.ts',
  'test/gps/reader.test.ts',
  'test/core/hostile-journal.test.ts',
  'test/cli/core.test.ts',
  'test/gps/gpsd-staking.test.ts',
  'test/cli/executable.test.ts',
  'test/renderer/screen-truth.property.test.ts',
];

export interface Ordered {
  /** The group's sequence.groupOrder: files of different groups never mix. */
  groupOrder: number;
  /** The file's project (files of a group's projects run side by side, so it does not order them). */
  project: string;
  /** Relative to the project root, with forward slashes. */
  file: string;
}

/** `ordered` (Vitest's order) with the known slow files of each group moved to its front, slowest first, whatever their project. */
export function slowFirst<T>(ordered: readonly T[], describe: (item: T) => Ordered, known: readonly string[] = KNOWN_SLOW_FILES): T[] {
  const rank = new Map(known.map((file, index) => [file, index]));
  return ordered
    .map((item, index) => ({ item, index, ...describe(item) }))
    .sort((a, b) => a.groupOrder - b.groupOrder || (rank.get(a.file) ?? known.length) - (rank.get(b.file) ?? known.length) || a.index - b.index)
    .map(({ item }) => item);
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return slowFirst(await super.sort(files), (spec) => ({
      groupOrder: spec.project.config.sequence.groupOrder,
      project: spec.project.name,
      file: relative(root, spec.moduleId).split('\\').join('/'),
    }));
  }
}
