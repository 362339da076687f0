// The toolbar over the map, by the active tool: "+ Add site" and "Zoom to all sites"; in add or pick mode
// what to click and "Use map centre" (the keyboard's way); in move mode how to move the pin and Cancel.
import { useRef } from 'react';
import type { ActiveTool } from '../map/tools/interaction';
import { formatDistance } from '../shared/format';
import type { SiteFlow } from './use-site-flow';

export function MapToolbar({ tool, flow, onUseCentre, onShowAll }: { tool: ActiveTool; flow: SiteFlow; onUseCentre: () => void; onShowAll: () => void }) {
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const { move } = flow;
  if (tool.id === 'move' && tool.phase === 'armed') {
    return (
      <div className="map-toolbar">
        <div className="map-hint move-hint" role="status">
          <span className="move-words">
            <strong>Drag the pin to its new place — Esc to cancel</strong>
            <span className="move-keys">{move.nudgedMeters === null ? 'or nudge it with the arrow keys, then Enter' : `${formatDistance(move.nudgedMeters)} from the site — Enter to confirm`}</span>
          </span>
          <button ref={flow.cancelMoveRef} type="button" onClick={move.cancelMove}>
            Cancel move
          </button>
        </div>
      </div>
    );
  }
  if (tool.id === 'add') {
    return (
      <div className="map-toolbar">
        <div className="map-hint" role="status">
          <strong>{tool.purpose === 'new' ? 'Click the map where the new site is.' : 'Click the map to set the position.'}</strong>
          <button ref={flow.useCentreRef} type="button" onClick={onUseCentre}>
            Use map centre
          </button>
          <button type="button" onClick={flow.cancelAddMode}>
            Cancel
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="map-toolbar">
      <button ref={addButtonRef} type="button" className="primary add-site" onClick={() => flow.startAddMode('new', () => addButtonRef.current)}>
        + Add site
      </button>
      <button type="button" onClick={onShowAll} title="Zoom the map out (or in) until every site is in view">
        Zoom to all sites
      </button>
    </div>
  );
}
