// Select: while it is on, a drag on the map draws a box that selects the shown sites in it (with
// Ctrl/Cmd held, adds them), and a click on a pin adds it to the selection or takes it out; a click
// on the map itself does nothing. Esc leaves the tool. Without the tool, Shift-drag and Shift- or
// Ctrl-click do the same (the map view's quick gestures), so this is the way for a mouse without a
// keyboard, a pen or a finger.
import { BoxSelect } from '../box-select';
import { MapTool } from './map-tool';

export class SelectTool extends MapTool {
  readonly id = 'select';
  private box: BoxSelect | null = null;

  protected override addHooks(): void {
    const { map } = this.host;
    map.getContainer().classList.add('selecting');
    this.box = new BoxSelect(map, { onBox: (bounds, add) => this.host.callbacks().onBox?.(bounds, add), withoutShift: true });
    this.box.enable();
  }

  protected override removeHooks(): void {
    this.host.map.getContainer().classList.remove('selecting');
    this.box?.disable();
    this.box = null;
  }

  override mapClick(): boolean {
    return true;
  }

  override pinClick(localId: string): boolean {
    this.host.callbacks().onToggleChosen?.(localId);
    return true;
  }

  override key(event: KeyboardEvent): boolean {
    if (event.key !== 'Escape') return false;
    this.host.interaction.dispatch({ type: 'escape' });
    return true;
  }
}
