// The outbox's state changes as a table: which moves are allowed, which transition makes each one,
// and that the store refuses a move the table does not allow before anything changes in memory or
// on disk (so a race between the user and the sync engine can never produce an impossible state).
import { describe, expect } from 'vitest';
import { createManualClock } from '../../electron/core/clock';
import { decide, DEFAULT_RETRY } from '../../electron/core/outbox/policy';
import { OutboxStore } from '../../electron/core/outbox/store';
import * as t from '../../electron/core/outbox/transitions';
import type { OutboxEntry, OutboxState } from '../../electron/core/outbox/types';
import { OUTBOX_STATES } from '../../electron/shared/domain';
import { it } from '../support/fixtures';
import { ERRORS } from './helpers';

const allowed: Array<[OutboxState, OutboxState]> = [
  ['pending', 'sending'],
  ['sending', 'done'],
  ['sending', 'failed'],
  ['sending', 'needs-review'],
  ['sending', 'paused'],
  ['sending', 'pending'],
  ['failed', 'pending'],
  ['needs-review', 'pending'],
  ['needs-review', 'done'],
  ['paused', 'pending'],
];

function entry(state: OutboxState, patch: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    id: 'o1',
    seq: 1,
    profileId: 'p1',
    state,
    attempts: 1,
    totalAttempts: 1,
    createdAt: 0,
    updatedAt: 0,
    nextAttemptAt: null,
    result: null,
    problem: null,
    kind: 'site',
    localId: 'L1',
    op: 'edit',
    payload: { siteId: '100', height: 30 },
    resultSiteId: null,
    ...patch,
  } as OutboxEntry;
}

describe('outbox transitions', () => {
  it('allows exactly the moves of the state diagram, and staying put', () => {
    for (const from of OUTBOX_STATES) {
      for (const to of OUTBOX_STATES) {
        const expected = from === to || allowed.some(([a, b]) => a === from && b === to);
        expect(t.canMove(from, to), `${from} → ${to}`).toBe(expected);
      }
    }
  });

  it.each([
    ['markSending', () => t.markSending(entry('pending'), 5), 'sending'],
    ['recordSuccess', () => t.recordSuccess(entry('sending'), 'ok', 5)[0]!, 'done'],
    ['recordWithoutSiteId', () => t.recordWithoutSiteId(entry('sending', { op: 'create' }), 'ok', decide(entry('sending'), ERRORS.http502(), DEFAULT_RETRY).problem, 5), 'needs-review'],
    ['userRetry', () => t.userRetry(entry('failed'), 5), 'pending'],
    ['userEdit', () => t.userEdit(entry('paused'), { siteId: '100', height: 40 }, 5), 'pending'],
    ['userConfirm', () => t.userConfirm(entry('needs-review'), 5)[0]!, 'done'],
    ['resume', () => t.resume([entry('paused')], 5)[0]!, 'pending'],
    ['coalesce', () => t.coalesce(entry('failed') as Extract<OutboxEntry, { kind: 'site' }>, { height: 50 }, 5), 'pending'],
  ] as const)('%s leads to %s', (_name, make, state) => {
    expect(make().patch.state).toBe(state);
  });

  it('recovers an interrupted edit for resending and an interrupted create for review', () => {
    const recovered = t.recoverInterrupted([entry('sending'), entry('sending', { id: 'o2', op: 'create', payload: { height: 30 } }), entry('pending', { id: 'o3' })], 5);
    expect(recovered.map((change) => [change.id, change.patch.state])).toEqual([
      ['o1', 'pending'],
      ['o2', 'needs-review'],
    ]);
  });

  it('gives the edits queued behind a confirmed create the new site ID, in the same batch', () => {
    const create = entry('needs-review', { id: 'c', op: 'create', payload: { height: 30 } });
    const follower = entry('pending', { id: 'f', seq: 2, payload: { height: 35 } as never });
    const changes = t.userConfirm(create, 9, { siteId: '4242', lane: [create, follower] });
    expect(changes.map((change) => change.id)).toEqual(['c', 'f']);
    expect(changes[1]!.patch).toMatchObject({ op: 'edit', payload: { siteId: '4242', height: 35 } });
    // The success path writes the same rewrite.
    expect(t.recordSuccess({ ...create, state: 'sending' }, 'Site created', 9, { siteId: '4242', lane: [create, follower] })[1]!.patch).toEqual(changes[1]!.patch);
  });

  it('the store refuses a move the table does not allow, and changes nothing', async ({ tempDir }) => {
    const clock = createManualClock();
    const { store } = await OutboxStore.open({ dataDir: tempDir, clock });
    const [queued] = await store.enqueue([{ kind: 'site', profileId: 'p1', localId: 'L1', op: 'edit', payload: { siteId: '100', height: 30 } }]);
    await store.update([t.markSending(queued!.entry, 1)]);
    await store.update(t.recordSuccess(store.get(queued!.entry.id)!, 'ok', 2));
    const done = store.get(queued!.entry.id)!;
    await expect(store.update([t.userRetry(done, 3)])).rejects.toThrow(/cannot go from done to pending/);
    expect(store.get(done.id)!.state).toBe('done');
    await store.close();
    const reopened = (await OutboxStore.open({ dataDir: tempDir, clock })).store;
    expect(reopened.get(done.id)!.state).toBe('done');
    await reopened.close();
  });
});
