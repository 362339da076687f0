// The map's Select button (the select tool on and off) and, while the tool is on, what to do with it.
import type { ToolId } from './tools/interaction';
import type { InteractionStore } from './tools/interaction-store';

export function SelectControl({ interaction, active }: { interaction: InteractionStore; active: ToolId | null }) {
  const on = active === 'select';
  return (
    <>
      <button type="button" aria-pressed={on} onClick={() => interaction.dispatch(on ? { type: 'end', tool: 'select' } : { type: 'start-select' })}>
        Select
      </button>
      {on && (
        <p className="map-hint select-hint" role="status">
          Drag a box over sites, or click pins, to select them (Ctrl adds to the selection). Esc when done.
        </p>
      )}
    </>
  );
}
