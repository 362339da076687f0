// EUS submissions picked by their distance to a site, as the page asks for them through the hosts'
// contract on a real core, against the sandbox over real HTTP: each submission's nearest site comes
// from the core's register, and the picked ones are reprocessed with the 24-hour email guard.
import { describe, expect, vi } from 'vitest';
import type { ApiEvent, BulkRunView, EusPlan, Result } from '../../electron/shared/contract/index';
import { createHostApi } from '../../electron/core/host-api';
import { it } from '../support/fixtures';
import { serviceMail, serviceMultiMaps, serviceSubmissions } from '../support/service-state';
import { useService } from '../support/core';
import { waiting } from '../support/wait';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe('EUS submissions by distance to a site', () => {
  it('tells each submission its nearest site, picks those within a distance and reprocesses them without emailing anyone twice', async ({ startSandbox, openCore }) => {
    const sandbox = await startSandbox({ seed: 'demo' });
    const core = await openCore({ sandbox: false, autoSync: false });
    await useService(core, sandbox.url);
    const hostApi = createHostApi(core, { host: 'browser', bulk: { progressIntervalMs: 20 } });
    const runs: BulkRunView[] = [];
    hostApi.onEvent((event: ApiEvent) => {
      if (event.type === 'bulk-run') runs.push(event.run);
    });
    const { api } = hostApi;
    const submissions = (await serviceSubmissions(sandbox.url)).slice(0, 3);
    // A tower beside each of the first two submissions (about 100 m away) and one far from all of them.
    const [first, second, third] = submissions as [(typeof submissions)[0], (typeof submissions)[0], (typeof submissions)[0]];
    const near = value(await core.sites.addExisting('9001', { name: 'Beside them', height: 30, latitude: first.latitude + 0.0009, longitude: first.longitude }));
    value(await core.sites.addExisting('9003', { name: 'Beside the second', height: 30, latitude: second.latitude, longitude: second.longitude + 0.001 }));
    value(await core.sites.addExisting('9002', { name: 'Far away', height: 30, latitude: first.latitude + 5, longitude: first.longitude + 5 }));
    const csv = ['Process ID,Name,Lat,Lon', ...[first, second].map((s) => `${s.processId},${s.name},${s.latitude},${s.longitude}`), `${third.processId},${third.name},${first.latitude + 2},${first.longitude}`].join('\n');
    const target = (await serviceMultiMaps(sandbox.url)).find((map) => map.id !== first.multiMapId)!;
    const file = value(await api.openBulkFile({ name: 'eus.csv', base64: Buffer.from(csv).toString('base64') }));

    const all: EusPlan = value(await api.previewReprocessFile(file.fileId, { multiMapId: target.id, sendEmail: true }));
    expect(all.coordinates).toEqual({ latitudeColumn: 'Lat', longitudeColumn: 'Lon', located: 3 });
    expect(all.rows[0]!.nearestSite).toMatchObject({ localId: near.localId, name: 'Beside them' });
    expect(all.rows[0]!.nearestSite!.km).toBeCloseTo(0.1, 1);

    // The first submission was emailed a moment ago: picked by distance, it is still held back.
    value(await core.reprocess({ processId: first.processId, multiMapId: target.id, sendEmail: true }));
    const choice = { multiMapId: target.id, sendEmail: true, withinKm: 1 };
    const picked = value(await api.previewReprocessFile(file.fileId, choice));
    expect(picked.rows.map((row) => [row.processId, row.ready, row.heldBack ?? false])).toEqual([
      [first.processId, false, true],
      [second.processId, true, false],
    ]);
    core.sync.start();
    const mailBefore = (await serviceMail(sandbox.url)).length;
    const started = value(await api.startReprocessFile(file.fileId, choice));
    await vi.waitFor(() => {
      if (!runs.some((run) => run.id === started.id && run.state === 'ended')) throw new Error('the run has not ended');
    }, waiting('the run to end', 60_000));
    await core.sync.untilSettled();
    const mailed = (await serviceMail(sandbox.url)).slice(mailBefore).map((mail) => mail.processId);
    // One emailing reprocess each (the first's queued above, the second's by the run): the service
    // mails every recipient of the account once per reprocess, so both counts are the same.
    const perReprocess = mailed.filter((id) => id === second.processId).length;
    expect(perReprocess).toBeGreaterThan(0);
    expect(mailed.filter((id) => id === first.processId)).toHaveLength(perReprocess);
    expect(mailed).not.toContain(third.processId);
    await hostApi.close();
  });
});
