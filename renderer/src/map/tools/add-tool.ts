// Add a site (or pick a place for the open form): a click on the map is the place; Esc leaves.
import { MapTool, type MapPoint } from './map-tool';

export class AddTool extends MapTool {
  readonly id = 'add';

  protected override addHooks(): void {
    this.host.map.getContainer().classList.add('adding');
  }

  protected override removeHooks(): void {
    this.host.map.getContainer().classList.remove('adding');
  }

  override mapClick(at: MapPoint): boolean {
    this.host.callbacks().onPick(at.lat, at.lng);
    return true;
  }

  /** A click that lands on a pin is still the place asked for (towers stand side by side), not a selection. */
  override pinClick(_localId: string, _at: MapPoint, _title: string, clicked: MapPoint | null): boolean {
    if (!clicked) return false;
    this.host.callbacks().onPick(clicked.lat, clicked.lng);
    return true;
  }

  override key(event: KeyboardEvent): boolean {
    if (event.key !== 'Escape') return false;
    this.host.callbacks().onCancelAdd();
    return true;
  }
}
