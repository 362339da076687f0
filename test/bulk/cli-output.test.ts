// What `sitewalk import` and `sitewalk reprocess-bulk` say (run in-process, nothing sent: dry runs and
// --no-wait): the exit code when the report cannot be written, the rows a person is shown, and the
// warnings a row carries.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { makeTempDir } from '../support/temp';
import { FIXTURES } from './helpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
async function dataDir(): Promise<string> {
  const dir = await makeTempDir('sitewalk-bulk-output-');
  cleanups.push(dir.remove);
  return dir.path;
}
const fixture = (name: string) => join(FIXTURES, name);
const runCli = sitewalkInTempHome();

describe('a report that cannot be written', { timeout: 180_000 }, () => {
  it('exits 3, as the docs say, in a dry run and in a run alike, and the JSON says not ok', async () => {
    const dir = await dataDir();
    const nowhere = join(dir, 'no-such-folder', 'plan.csv');
    for (const mode of ['--dry-run', '--no-wait']) {
      const human = await runCli(['import', fixture('utf8-bom.csv'), mode, '--report', nowhere, '--data-dir', dir]);
      expect(human.stderr).toMatch(/the report was not written/);
      expect(human.code, mode).toBe(3);
      const json = await runCli(['import', fixture('utf8-bom.csv'), mode, '--report', nowhere, '--json', '--data-dir', dir]);
      expect(json.code, mode).toBe(3);
      expect(json.json, mode).toMatchObject({ ok: false, report: nowhere, reportError: expect.stringMatching(/.+/) });
    }
    const eus = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', '301', '--filter', 'City=millbrook', '--dry-run', '--report', nowhere, '--data-dir', dir]);
    expect(eus.code).toBe(3);
  });
});
