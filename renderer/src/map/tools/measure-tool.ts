// Measure: two clicks (places or sites) give the distance and bearing between them (MeasureResult
// says it); a third starts again. The line and its ends are drawn under the pins. Esc clears the
// points, then leaves the tool.
import L from 'leaflet';
import { MapTool, type MapPoint } from './map-tool';
import type { MeasurePoint } from '../measure-result';

export class MeasureTool extends MapTool {
  readonly id = 'measure';
  private drawn: L.LayerGroup | null = null;
  private drawnFor: MeasurePoint[] | null = null;
  private stop: (() => void) | null = null;

  protected override addHooks(): void {
    this.host.map.getContainer().classList.add('measuring');
    this.stop = this.host.interaction.subscribe(() => this.draw());
    this.draw();
  }

  protected override removeHooks(): void {
    this.host.map.getContainer().classList.remove('measuring');
    this.stop?.();
    this.stop = null;
    this.drawn?.remove();
    this.drawn = null;
    this.drawnFor = null;
  }

  override mapClick(at: MapPoint): boolean {
    this.host.interaction.dispatch({ type: 'measure-point', point: { ...at, name: null } });
    return true;
  }

  override pinClick(_localId: string, at: MapPoint, title: string): boolean {
    this.host.interaction.dispatch({ type: 'measure-point', point: { ...at, name: title } });
    return true;
  }

  override key(event: KeyboardEvent): boolean {
    if (event.key !== 'Escape') return false;
    this.host.interaction.dispatch({ type: 'escape' });
    return true;
  }

  private draw(): void {
    const tool = this.host.interaction.get().tool;
    const points = tool.id === 'measure' ? tool.points : [];
    if (points === this.drawnFor) return;
    this.drawnFor = points;
    this.drawn?.remove();
    this.drawn = null;
    if (points.length === 0) return;
    const group = L.layerGroup();
    const latlngs = points.map((p) => L.latLng(p.lat, p.lng));
    if (latlngs.length === 2) {
      L.polyline(latlngs, { color: '#ffffff', weight: 7, opacity: 0.9, interactive: false }).addTo(group);
      L.polyline(latlngs, { color: '#111111', weight: 3, dashArray: '8 6', interactive: false }).addTo(group);
    }
    for (const ll of latlngs) L.circleMarker(ll, { radius: 6, color: '#111111', weight: 3, fillColor: '#ffd400', fillOpacity: 1, interactive: false }).addTo(group);
    group.addTo(this.host.map);
    this.drawn = group;
  }
}
