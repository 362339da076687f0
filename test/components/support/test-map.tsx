// The real map as the component tests mount it: the store's settings, a handle of its own, nothing
// selected or filtered, and every callback doing nothing unless a test passes its own. Each test
// gives only the props its behaviour is about, so the harnesses say what they wire and no more.
import { useRef } from 'react';
import { useUi } from '../../../renderer/src/shared/ui/ui-context';
import { MapView, type MapHandle, type MapViewProps } from '../../../renderer/src/map/map-view';
import { useAppState } from '../../../renderer/src/shared/store/app-store';

const ignore = () => {};

export function TestMap(props: Partial<MapViewProps>) {
  const ui = useUi();
  const settings = useAppState(ui.store, (s) => s.settings);
  const handle = useRef<MapHandle>(null);
  return (
    <MapView
      store={ui.store}
      settings={settings}
      selectedId={null}
      filter={null}
      movePreview={null}
      onPick={ignore}
      onSelect={ignore}
      onDrop={ignore}
      onNudge={ignore}
      onStartMove={ignore}
      onEdit={ignore}
      onCancelAdd={ignore}
      rightInset={0}
      handle={handle}
      {...props}
    />
  );
}

/** The map's element (where Leaflet listens). */
export function mapElement(): HTMLElement {
  return document.querySelector<HTMLElement>('[data-testid="map"]')!;
}
