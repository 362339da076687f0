// What the user is doing with the map is one value: at most one tool is active, starting one ends
// the other, Esc steps back, the form takes over from add and pick mode, and a move that waits for
// its confirmation is never dropped by another tool. The registry gives clicks and keys only to the
// active tool, switching tools on and off as Leaflet switches its handlers.
import { describe, expect, it } from 'vitest';
import { initialInteraction, nextInteraction, type Interaction, type InteractionEvent } from '../../renderer/src/map/tools/interaction';
import { ToolRegistry } from '../../renderer/src/map/tools/registry';
import { MapTool, type MapPoint, type ToolHost } from '../../renderer/src/map/tools/map-tool';
import type { ToolId } from '../../renderer/src/map/tools/interaction';

function run(events: InteractionEvent[], from: Interaction = initialInteraction()): Interaction {
  return events.reduce(nextInteraction, from);
}

const A = { lat: 40.5, lng: -80.25, name: null };
const B = { lat: 40.6, lng: -80.2, name: 'Valley' };

describe('one tool at a time', () => {
  it('starting the measure tool ends add-site mode, and starting add mode ends measuring', () => {
    const measuring = run([{ type: 'start-add', purpose: 'new' }, { type: 'start-measure' }]);
    expect(measuring.tool).toEqual({ id: 'measure', points: [] });
    expect(run([{ type: 'start-add', purpose: 'pick' }], measuring).tool).toEqual({ id: 'add', purpose: 'pick' });
  });

  it('starting a move ends the measure tool; starting a tool ends a move not yet dropped', () => {
    const moving = run([{ type: 'start-measure' }, { type: 'move', event: { type: 'start', localId: 'L1' } }]);
    expect(moving.tool).toEqual({ id: 'move', phase: 'armed', localId: 'L1' });
    expect(run([{ type: 'start-download-area' }], moving).tool).toEqual({ id: 'download-area' });
  });

  it('leaves a dropped move waiting for its confirmation whatever else is started, and ends it once decided', () => {
    const waiting = run([{ type: 'move', event: { type: 'start', localId: 'L1' } }, { type: 'move', event: { type: 'drop', localId: 'L1' } }]);
    expect(waiting.tool).toEqual({ id: 'move', phase: 'confirming', localId: 'L1' });
    for (const event of [{ type: 'start-measure' }, { type: 'start-add', purpose: 'new' }, { type: 'escape' }, { type: 'end' }] as InteractionEvent[]) {
      expect(nextInteraction(waiting, event).tool).toBe(waiting.tool);
    }
    expect(run([{ type: 'move', event: { type: 'done' } }], waiting).tool).toEqual({ id: null });
  });

  it('ends only the tool named: ending add mode while measuring keeps the measure tool', () => {
    const measuring = run([{ type: 'start-measure' }]);
    expect(run([{ type: 'end', tool: 'add' }], measuring)).toBe(measuring);
    expect(run([{ type: 'end', tool: 'measure' }], measuring).tool).toEqual({ id: null });
  });

  it('closes the map menu when a tool starts', () => {
    const withMenu = run([{ type: 'open-menu', menu: { kind: 'map', x: 1, y: 2, lat: 3, lng: 4 } }]);
    expect(withMenu.menu).not.toBeNull();
    expect(run([{ type: 'start-measure' }], withMenu).menu).toBeNull();
  });
});

describe('the select tool', () => {
  it('is one tool among the others: starting it ends measuring, Esc or its button ends it', () => {
    const selecting = run([{ type: 'start-measure' }, { type: 'start-select' }]);
    expect(selecting.tool).toEqual({ id: 'select' });
    expect(run([{ type: 'escape' }], selecting).tool).toEqual({ id: null });
    expect(run([{ type: 'end', tool: 'select' }], selecting).tool).toEqual({ id: null });
    expect(run([{ type: 'start-add', purpose: 'new' }], selecting).tool).toEqual({ id: 'add', purpose: 'new' });
  });
});

describe('the measure tool', () => {
  it('takes two points, and a third starts a new measurement', () => {
    const two = run([{ type: 'start-measure' }, { type: 'measure-point', point: A }, { type: 'measure-point', point: B }]);
    expect(two.tool).toEqual({ id: 'measure', points: [A, B] });
    expect(run([{ type: 'measure-point', point: A }], two).tool).toEqual({ id: 'measure', points: [A] });
  });

  it('clears its points on Esc, and leaves on the next Esc', () => {
    const cleared = run([{ type: 'start-measure' }, { type: 'measure-point', point: A }, { type: 'escape' }]);
    expect(cleared.tool).toEqual({ id: 'measure', points: [] });
    expect(run([{ type: 'escape' }], cleared).tool).toEqual({ id: null });
  });

  it('ignores a point when it is not measuring', () => {
    const idle = initialInteraction();
    expect(nextInteraction(idle, { type: 'measure-point', point: A })).toBe(idle);
  });
});

describe('the form and the places picked for it', () => {
  it('opening the form ends add mode and a move not yet dropped, and numbers each opening', () => {
    const first = run([{ type: 'start-add', purpose: 'new' }, { type: 'open-form', request: { mode: 'new', lat: 1, lng: 2 } }]);
    expect(first.tool).toEqual({ id: null });
    expect(first.form).toEqual({ request: { mode: 'new', lat: 1, lng: 2 }, seq: 1 });
    const second = run([{ type: 'move', event: { type: 'start', localId: 'L1' } }, { type: 'open-form', request: { mode: 'edit', localId: 'L1' } }], first);
    expect(second.tool).toEqual({ id: null });
    expect(second.form?.seq).toBe(2);
  });

  it('a pick ends pick mode and gives the form a new place each time', () => {
    const picked = run([{ type: 'open-form', request: { mode: 'existing' } }, { type: 'start-add', purpose: 'pick' }, { type: 'pick', lat: 5, lng: 6 }]);
    expect(picked.tool).toEqual({ id: null });
    expect(picked.picked).toEqual({ lat: 5, lng: 6, seq: 1 });
    expect(run([{ type: 'pick', lat: 5, lng: 6 }], picked).picked?.seq).toBe(2);
  });

  it('"Stake here" is a new request each time, and its result is a place for the form', () => {
    const staking = run([{ type: 'start-stake', target: null }]);
    expect(staking.tool).toEqual({ id: 'stake', seq: 1, target: null });
    expect(run([{ type: 'end' }, { type: 'start-stake', target: { lat: 1, lon: 2 } }], staking).tool).toEqual({ id: 'stake', seq: 2, target: { lat: 1, lon: 2 } });
    const done = run([{ type: 'stake-done', place: { lat: 7, lng: 8 } }], staking);
    expect(done.tool).toEqual({ id: null });
    expect(done.picked).toEqual({ lat: 7, lng: 8, seq: 1 });
    expect(run([{ type: 'stake-done', place: null }], staking).picked).toBeNull();
  });

  it('closing the form ends add and stake mode with it', () => {
    expect(run([{ type: 'open-form', request: { mode: 'existing' } }, { type: 'start-add', purpose: 'pick' }, { type: 'close-form' }]).tool).toEqual({ id: null });
    expect(run([{ type: 'open-form', request: { mode: 'existing' } }, { type: 'start-stake', target: null }, { type: 'close-form' }]).tool).toEqual({ id: null });
  });

  it("keeps the open form's place for the map, the same state for the same place, and none once the form closes", () => {
    expect(run([{ type: 'form-place', place: { lat: 1, lng: 2 } }]).form).toBeNull();
    const placed = run([{ type: 'open-form', request: { mode: 'new', lat: 1, lng: 2 } }, { type: 'form-place', place: { lat: 1, lng: 2 } }]);
    expect(placed.form?.place).toEqual({ lat: 1, lng: 2 });
    expect(run([{ type: 'form-place', place: { lat: 1, lng: 2 } }], placed)).toBe(placed);
    expect(run([{ type: 'form-place', place: null }], placed).form?.place).toBeNull();
    expect(run([{ type: 'close-form' }], placed).form).toBeNull();
  });
});

/** A tool that records what it was asked, and takes map clicks and Escape. */
class Recorder extends MapTool {
  readonly log: string[] = [];
  constructor(readonly id: ToolId) {
    super(null as unknown as ToolHost);
  }

  protected override addHooks(): void {
    this.log.push('on');
  }

  protected override removeHooks(): void {
    this.log.push('off');
  }

  override mapClick(at: MapPoint): boolean {
    this.log.push(`click ${at.lat},${at.lng}`);
    return true;
  }
}

describe('the tool registry', () => {
  it('switches the old tool off before the new one on, and only the active one hears clicks', () => {
    const add = new Recorder('add');
    const measure = new Recorder('measure');
    const tools = new ToolRegistry().add(add).add(measure);
    expect(tools.mapClick({ lat: 1, lng: 2 })).toBe(false);
    tools.activate('add');
    expect(tools.mapClick({ lat: 1, lng: 2 })).toBe(true);
    tools.activate('measure');
    tools.mapClick({ lat: 3, lng: 4 });
    tools.activate('measure');
    tools.activate(null);
    expect(add.log).toEqual(['on', 'click 1,2', 'off']);
    expect(measure.log).toEqual(['on', 'click 3,4', 'off']);
    expect([add.enabled(), measure.enabled(), tools.active()]).toEqual([false, false, null]);
  });

  it('leaves no tool active for an ID nothing is registered under', () => {
    const add = new Recorder('add');
    const tools = new ToolRegistry().add(add);
    tools.activate('add');
    tools.activate('select');
    expect(tools.active()).toBeNull();
    expect(add.enabled()).toBe(false);
  });

  it('refuses a second tool under the same ID', () => {
    expect(() => new ToolRegistry().add(new Recorder('add')).add(new Recorder('add'))).toThrow('"add" is registered already');
  });
});
