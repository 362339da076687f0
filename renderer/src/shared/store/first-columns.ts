// The first load's sites as columns, handed to the map before any SiteView is made: the map draws its
// pins from them, and the store makes the 50,000 views once that frame is on screen. The map's code may
// load after the list arrives; then the columns wait for it (bounded), rather than the page making
// every view first and the map its pins from those, before its first frame.
import type { SiteList } from '../../../../electron/shared/contract/site-list';
import { afterPaint, within } from './frames';

/** Hears the columns; a promise it returns settles once what it drew from them is on screen. */
export type ColumnsListener = (list: SiteList) => void | Promise<void>;

/** How long the views wait for the map: to subscribe to the columns, then to draw them. */
const MAP_WAIT_MS = { subscribe: 10_000, draw: 3_000 } as const;

export class FirstColumns {
  private readonly listeners = new Set<ColumnsListener>();
  /** Set when a map will subscribe (the page's boot): the first load waits for it. */
  private mapComing = false;
  private arrived: ((list: SiteList) => void) | null = null;
  private subscribed: (() => void) | null = null;

  subscribe(listener: ColumnsListener): () => void {
    this.listeners.add(listener);
    this.subscribed?.();
    return () => this.listeners.delete(listener);
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
