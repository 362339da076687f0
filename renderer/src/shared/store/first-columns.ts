// The first load's sites as columns, handed to the map before any SiteView is made: the map draws its
// pins from them, and the store makes the 50,000 views once that frame is on screen. The map's code may
// load after the list arrives; then the columns wait for it (bounded), rather than the page making
// every view first and the map its pins from those, before its first frame.
// Many sites' pins are drawn earlier still, from the host's positions answer (site-positions.ts, a
// sixth of the list's bytes); `positionsDrawn` says when that frame is on screen (the page's boot
// holds the list's parsing until then: its megabytes are parsed and decoded beside an idle page
// rather than beside the first screen and the worker).
import type { SiteList } from '../../../../electron/shared/contract/site-list';
import type { SitePositions } from '../../../../electron/shared/contract/site-positions';
import { afterPaint, within } from './frames';

/** Hears the columns; a promise it returns settles once what it drew from them is on screen. */
export type ColumnsListener = (list: SiteList) => void | Promise<void>;
/** Hears the located sites' positions, before the list; a promise it returns settles once it drew them. */
export type PositionsListener = (positions: SitePositions) => void | Promise<void>;

/** How long the views wait for the map: to subscribe to the columns, then to draw them; the list for the positions' pins. */
const MAP_WAIT_MS = { subscribe: 10_000, draw: 3_000, positions: 2_000 } as const;

export class FirstColumns {
  private readonly listeners = new Set<ColumnsListener>();
  /** Set when a map will subscribe (the page's boot): the first load waits for it. */
  private mapComing = false;
  private arrived: ((list: SiteList) => void) | null = null;
  private subscribed: (() => void) | null = null;
  private readonly positionListeners = new Set<PositionsListener>();
  /** The positions heard before the list, for a map that subscribes after them. */
  private positions: SitePositions | null = null;
  private listHanded = false;
  private painted: () => void = () => undefined;
  private readonly positionsPainted = new Promise<void>((resolve) => (this.painted = resolve));

  subscribe(listener: ColumnsListener): () => void {
    this.listeners.add(listener);
    this.subscribed?.();
    return () => this.listeners.delete(listener);
  }

  /** Hears the positions (at once if they came already), unless the list was handed first. */
  subscribePositions(listener: PositionsListener): () => void {
    this.positionListeners.add(listener);
    if (this.positions && !this.listHanded) this.shown([listener(this.positions)]);
    return () => this.positionListeners.delete(listener);
  }

  /** The host's positions of many sites have arrived: a map draws them unless it has the list already. */
  heardPositions(positions: SitePositions): void {
    if (this.listHanded) return;
    this.positions = positions;
    if (this.positionListeners.size > 0) this.shown([...this.positionListeners].map((listener) => listener(positions)));
  }

  /** Settles once the pins a map drew from the positions are on screen (2 s at most). */
  positionsDrawn(): Promise<void> {
    return within(this.positionsPainted, MAP_WAIT_MS.positions);
  }

  private shown(drawn: Array<void | Promise<void>>): void {
    void Promise.all(drawn).then(() => afterPaint(this.painted));
  }

  /** A map will subscribe; `arrived` hears the columns the moment they arrive (a worker starts their clusters). */
  expectMap(arrived?: (list: SiteList) => void): void {
    this.mapComing = true;
    this.arrived = arrived ?? null;
  }

  /** The list has arrived (the map may not be there yet). */
  heard(list: SiteList): void {
    this.arrived?.(list);
  }

  /**
   * Hands the columns to the map and settles once its pins are on screen (their clusters may come from
   * a worker), a frame for them, and one free for input before the views take the main thread.
   */
  async hand(list: SiteList): Promise<void> {
    this.listHanded = true;
    this.positions = null;
    // The list is here: nothing is held for the positions' frame any longer (never drawn, if it came first).
    this.painted();
    if (this.mapComing && this.listeners.size === 0) {
      await within(new Promise<void>((resolve) => (this.subscribed = resolve)), MAP_WAIT_MS.subscribe);
      this.subscribed = null;
    }
    const drawn = [...this.listeners].map((listener) => listener(list));
    await within(Promise.all(drawn).then(() => undefined), MAP_WAIT_MS.draw);
    await new Promise<void>((resolve) => afterPaint(resolve));
    await new Promise<void>((resolve) => afterPaint(resolve));
  }
}
