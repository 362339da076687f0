// EUS submissions on a map of their own, beside the towers: each located submission is a ring
// (filled when picked), each site a small square, so a reprocess can be chosen by where people are.
// A click on a submission picks it or puts it back; a Shift-drag box picks every submission in it
// (with Ctrl/Cmd, adds them). Canvas-drawn circle markers: thousands stay smooth.
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type { EusPlanRow } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { useUi } from '../../shared/ui/ui-context';
import { readMapPalette, useResolvedTheme } from '../../shared/theme';
import { coordinateGrid } from '../../map/grid-layer';
import { BoxSelect, boxContains } from '../../map/box-select';
import './eus-map.css';

export function EusMap({ rows, picked, onToggle, onPick }: {
  rows: readonly EusPlanRow[];
  picked: ReadonlySet<number>;
  onToggle: (row: number) => void;
  /** A box drawn over these rows; `add` keeps what was picked before. */
  onPick: (rows: number[], add: boolean) => void;
}) {
  const ui = useUi();
  const sites = useAppState(ui.store, (s) => s.sites);
  const theme = useResolvedTheme(useAppState(ui.store, (s) => s.settings.theme));
  const gridRef = useRef<ReturnType<typeof coordinateGrid> | null>(null);
  const holder = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layers = useRef<{ sites: L.LayerGroup; submissions: L.LayerGroup } | null>(null);
  const callbacks = useRef({ onToggle, onPick, rows });
  callbacks.current = { onToggle, onPick, rows };
  const fitted = useRef(false);

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const renderer = L.canvas({ padding: 0.2 });
    const map = L.map(el, { center: [20, 0], zoom: 2, preferCanvas: true, renderer, attributionControl: false, keyboard: true });
    const grid = coordinateGrid(readMapPalette(el));
    grid.addTo(map);
    gridRef.current = grid;
    const siteLayer = L.layerGroup().addTo(map);
    const submissionLayer = L.layerGroup().addTo(map);
    layers.current = { sites: siteLayer, submissions: submissionLayer };
    const box = new BoxSelect(map, {
      onBox: (bounds, add) => {
        const inside = callbacks.current.rows.filter((row) => row.place && boxContains(bounds, row.place.latitude, row.place.longitude)).map((row) => row.row);
        callbacks.current.onPick(inside, add);
      },
    });
    box.enable();
    mapRef.current = map;
    const resize = new ResizeObserver(() => map.invalidateSize({ pan: false }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      layers.current = null;
    };
  }, []);

  // The towers: only those near the submissions (a margin around them), as small squares.
  useEffect(() => {
    const map = mapRef.current;
    const group = layers.current?.sites;
    if (!map || !group) return;
    group.clearLayers();
    const located = rows.filter((row) => row.place);
    if (located.length === 0) return;
    const area = L.latLngBounds(located.map((row) => [row.place!.latitude, row.place!.longitude] as [number, number])).pad(0.5);
    const palette = readMapPalette(holder.current!);
    gridRef.current?.setPalette(palette);
    for (const site of sites.values()) {
      if (site.latitude === null || site.longitude === null || !area.contains([site.latitude, site.longitude])) continue;
      L.circleMarker([site.latitude, site.longitude], { radius: 4, weight: 2, color: palette.highlightOuter, fillColor: palette.highlightOuter, fillOpacity: 1, interactive: false }).addTo(group);
    }
  }, [sites, rows, theme]);

  // The submissions: a ring each, filled when picked; a click toggles.
  useEffect(() => {
    const map = mapRef.current;
    const group = layers.current?.submissions;
    if (!map || !group) return;
    group.clearLayers();
    const palette = readMapPalette(holder.current!);
    const located = rows.filter((row) => row.place);
    for (const row of located) {
      const on = picked.has(row.row);
      const marker = L.circleMarker([row.place!.latitude, row.place!.longitude], {
        radius: 7,
        weight: 3,
        color: on ? palette.highlightOuter : '#0b4fa8',
        fillColor: on ? palette.highlightInner : '#0b4fa8',
        fillOpacity: on ? 0.95 : 0.15,
      });
      marker.bindTooltip(`${row.processId}${row.nearestSite ? ` · ${formatKm(row.nearestSite.km)} from ${row.nearestSite.name || 'a site'}` : ''}${on ? ' · picked' : ''}`);
      marker.on('click', () => callbacks.current.onToggle(row.row));
      marker.addTo(group);
    }
    if (!fitted.current && located.length > 0) {
      map.fitBounds(L.latLngBounds(located.map((row) => [row.place!.latitude, row.place!.longitude] as [number, number])).pad(0.15), { maxZoom: 14, animate: false });
      fitted.current = true;
    }
  }, [rows, picked, theme]);

  const located = rows.filter((row) => row.place).length;
  return (
    <section className="eus-map" aria-label="Submissions on the map">
      <div ref={holder} className="eus-map-canvas" role="application" aria-label="Map of the submissions (rings) and the sites (squares); click a ring to pick it, Shift-drag to pick an area" tabIndex={0} />
      <p className="hint">
        {located.toLocaleString()} of {rows.length.toLocaleString()} submissions have a position. Click a ring to pick it or put it back; Shift-drag a box to pick every one in it (Ctrl too: add them).
      </p>
    </section>
  );
}

/** "350 m", "2.4 km", "18 km". */
export function formatKm(km: number): string {
  if (km < 1) return `${Math.round(km * 1000)} m`;
  return km < 10 ? `${km.toFixed(1)} km` : `${Math.round(km)} km`;
}
