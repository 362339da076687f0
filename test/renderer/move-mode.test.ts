// Move mode: no pin moves unless the user asked to move that one site, and then only that site's pin
// can be dragged, until it is dropped, the move is cancelled or another site is selected. A drop of
// any other pin, or after the mode ended, is no move.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IDLE, canStartMove, draggablePin, nextMoveMode, type MoveEvent, type MoveMode } from '../../renderer/src/features/sites/site-move';
import { siteView } from './site-view';

function run(events: MoveEvent[], from: MoveMode = IDLE): MoveMode {
  return events.reduce(nextMoveMode, from);
}

describe('which pin can be dragged', () => {
  it('none at first: every pin is fixed', () => {
    expect(draggablePin(IDLE)).toBeNull();
  });

  it('the one site put in move mode, and no other', () => {
    const mode = run([{ type: 'start', localId: 'A' }]);
    expect(draggablePin(mode)).toBe('A');
  });

  it('another site when Move is chosen for it instead', () => {
    expect(draggablePin(run([{ type: 'start', localId: 'A' }, { type: 'start', localId: 'B' }]))).toBe('B');
  });

  it('none again after Esc or Cancel move', () => {
    expect(draggablePin(run([{ type: 'start', localId: 'A' }, { type: 'cancel' }]))).toBeNull();
  });

  it('none once another site is selected; selecting the same site keeps the mode', () => {
    expect(draggablePin(run([{ type: 'start', localId: 'A' }, { type: 'select', localId: 'B' }]))).toBeNull();
    expect(draggablePin(run([{ type: 'start', localId: 'A' }, { type: 'select', localId: null }]))).toBeNull();
    expect(draggablePin(run([{ type: 'start', localId: 'A' }, { type: 'select', localId: 'A' }]))).toBe('A');
  });

  it('none while the dropped move waits for its confirmation, and none after it is decided', () => {
    const dropped = run([{ type: 'start', localId: 'A' }, { type: 'drop', localId: 'A' }]);
    expect(dropped).toEqual({ phase: 'confirming', localId: 'A' });
    expect(draggablePin(dropped)).toBeNull();
    expect(run([{ type: 'done' }], dropped)).toEqual(IDLE);
  });
});

describe('what counts as a move', () => {
  it('a drop of the pin in move mode goes to the confirmation', () => {
    expect(run([{ type: 'start', localId: 'A' }, { type: 'drop', localId: 'A' }]).phase).toBe('confirming');
  });

  it('a drop without move mode, or of another pin, is no move', () => {
    expect(run([{ type: 'drop', localId: 'A' }])).toEqual(IDLE);
    expect(run([{ type: 'start', localId: 'A' }, { type: 'drop', localId: 'B' }])).toEqual({ phase: 'armed', localId: 'A' });
    expect(run([{ type: 'start', localId: 'A' }, { type: 'cancel' }, { type: 'drop', localId: 'A' }])).toEqual(IDLE);
  });

  it('a waiting confirmation is not dropped by Esc, a selection or another Move', () => {
    const waiting: MoveMode = { phase: 'confirming', localId: 'A' };
    expect(run([{ type: 'cancel' }, { type: 'select', localId: 'B' }, { type: 'start', localId: 'B' }], waiting)).toEqual(waiting);
  });

  it('never lets more than the one chosen pin be dragged, whatever happens', () => {
    const id = fc.constantFrom('A', 'B', 'C');
    const event: fc.Arbitrary<MoveEvent> = fc.oneof(
      id.map((localId) => ({ type: 'start' as const, localId })),
      id.map((localId) => ({ type: 'drop' as const, localId })),
      fc.constant({ type: 'cancel' as const }),
      fc.constant({ type: 'done' as const }),
      fc.option(id, { nil: null }).map((localId) => ({ type: 'select' as const, localId })),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let mode: MoveMode = IDLE;
        let lastStarted: string | null = null;
        for (const e of events) {
          if (e.type === 'start' && mode.phase !== 'confirming') lastStarted = e.localId;
          const next = nextMoveMode(mode, e);
          // A drop leads to a confirmation only for the pin that was draggable.
          if (next.phase === 'confirming' && mode.phase !== 'confirming') expect(e).toEqual({ type: 'drop', localId: draggablePin(mode) });
          mode = next;
          const draggable = draggablePin(mode);
          if (draggable !== null) expect(draggable).toBe(lastStarted);
        }
      }),
    );
  });
});

describe('whether a site can be put in move mode', () => {
  it('can when it has a position and a height', () => {
    expect(canStartMove(siteView({ height: 30 }))).toEqual({ ok: true });
  });

  it('cannot without a height, and says how to fix it', () => {
    expect(canStartMove(siteView({ height: null }))).toEqual({ ok: false, message: 'This site has no height yet; open it and set one before moving it.' });
  });

  it('cannot, quietly, when the site has gone or has no position', () => {
    expect(canStartMove(undefined)).toEqual({ ok: false, message: null });
    expect(canStartMove(siteView({ longitude: null }))).toEqual({ ok: false, message: null });
  });
});
