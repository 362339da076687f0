// The place the open site form names, on the map: where a click in add mode landed, My location's
// averaged fix, or coordinates typed in the form — so a crew sees where the tower goes before it is
// saved, and sees it move as the numbers are corrected. A Leaflet marker under the map's own control
// (no React per frame), not clickable, drawn over the pins; brought into view when it would be off
// the map or under the docked form.
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import './place-marker.css';

export interface MapPlace {
  lat: number;
  lng: number;
}

const PIN =
  '<svg width="34" height="46" viewBox="0 0 28 38" aria-hidden="true"><path class="place-marker-body" d="M14 36C14 36 2.5 22.5 2.5 13.5a11.5 11.5 0 0 1 23 0C25.5 22.5 14 36 14 36Z"/><circle class="place-marker-dot" cx="14" cy="13.5" r="4"/></svg>';

/** Margin kept between the place and the map's edges (and the form) when it is brought into view. */
const MARGIN = 48;

export function PlaceMarker({ map, place, rightInset }: { map: L.Map | null; place: MapPlace | null; rightInset: number }) {
  const marker = useRef<L.Marker | null>(null);
  useEffect(() => {
    if (!map || !place) return;
    if (!marker.current) {
      const icon = L.divIcon({ className: 'place-marker', html: PIN, iconSize: [34, 46], iconAnchor: [17, 45] });
      marker.current = L.marker([place.lat, place.lng], { icon, interactive: false, keyboard: false, zIndexOffset: 10_000, title: 'The new place' }).addTo(map);
    } else {
      marker.current.setLatLng([place.lat, place.lng]);
    }
    marker.current.getElement()?.setAttribute('data-testid', 'place-marker');
    // panInside pans only as far as needed, and not at all when the place is already in the clear part.
    map.panInside([place.lat, place.lng], { paddingTopLeft: [MARGIN, MARGIN + 40], paddingBottomRight: [rightInset + MARGIN, MARGIN] });
  }, [map, place, rightInset]);
  // Gone with the place (the form closed, or its coordinates cannot be read) and with the map.
  useEffect(() => {
    if (place) return;
    marker.current?.remove();
    marker.current = null;
  }, [place]);
  useEffect(
    () => () => {
      marker.current?.remove();
      marker.current = null;
    },
    [map],
  );
  return null;
}
