// The map's context menu: a place's (New site here, Download this area…, Copy coordinates) or a pin's
// (Move, Edit). It takes focus so it works from the keyboard (arrows, Home, End) and closes with
// Escape, which puts focus back on the map. Its state is the interaction's `menu`.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { formatDecimal } from '../shared/coords';
import type { MenuState } from './tools/interaction';

export interface MapMenuActions {
  onStartMove: (localId: string) => void;
  onEdit: (localId: string) => void;
  onNewSite: (lat: number, lng: number) => void;
  onDownloadArea: () => void;
  /** Why the active basemap may not be downloaded, or null when it may. */
  downloadRefusal: string | null;
}

export function MapMenu({ menu, actions, onClose }: { menu: MenuState; actions: MapMenuActions; onClose: (refocus: boolean) => void }) {
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menuRef.current?.querySelector('button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        onClose(true);
        return;
      }
      const items = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
      const at = items.indexOf(document.activeElement as HTMLButtonElement);
      if (at < 0) return;
      const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      items[(next + items.length) % items.length]?.focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [menu, onClose]);

  /** A menu item's action: the menu closes first (focus goes where the action takes it). */
  const then = (action: () => void) => () => {
    onClose(false);
    action();
  };
  return (
    <div ref={menuRef} className="context-menu" role="menu" aria-label={menu.kind === 'pin' ? `Actions for ${menu.title}` : 'Map actions'} style={{ left: menu.x, top: menu.y }}>
      {menu.kind === 'pin' ? (
        <>
          <MenuItem onSelect={then(() => actions.onStartMove(menu.localId))}>Move this site</MenuItem>
          <MenuItem onSelect={then(() => actions.onEdit(menu.localId))}>Edit this site</MenuItem>
        </>
      ) : (
        <>
          <MenuItem onSelect={then(() => actions.onNewSite(menu.lat, menu.lng))}>New site here</MenuItem>
          {/* Always offered, so a basemap that may not be downloaded says why instead of leaving the user to wonder. */}
          <MenuItem onSelect={then(actions.onDownloadArea)} disabledReason={actions.downloadRefusal}>
            Download this area…
          </MenuItem>
        </>
      )}
      <MenuItem
        onSelect={() => {
          onClose(true);
          void navigator.clipboard?.writeText(`${formatDecimal(menu.lat)}, ${formatDecimal(menu.lng)}`);
        }}
      >
        Copy coordinates ({formatDecimal(menu.lat)}, {formatDecimal(menu.lng)})
      </MenuItem>
      <MenuItem onSelect={() => onClose(true)}>Close menu</MenuItem>
    </div>
  );
}

/** One entry of the map's context menu (the menu's arrow keys move between these). */
function MenuItem({ onSelect, disabledReason = null, children }: { onSelect: () => void; disabledReason?: string | null; children: ReactNode }) {
  const reasonId = useId();
  if (disabledReason !== null) {
    // aria-disabled rather than disabled: the arrow keys still reach it, so its reason is read out.
    return (
      <button type="button" role="menuitem" aria-disabled="true" aria-describedby={reasonId} className="menu-disabled">
        {children}
        <span id={reasonId} className="menu-reason">
          {disabledReason}
        </span>
      </button>
    );
  }
  return (
    <button type="button" role="menuitem" onClick={onSelect}>
      {children}
    </button>
  );
}
