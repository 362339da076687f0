// The map's tools by ID, and which one is active: activating one disables the one before it, so at
// most one tool has the clicks and keys. The active tool follows the interaction (MapView syncs it).
import type { ToolId } from './interaction';
import type { MapPoint, MapTool } from './map-tool';

export class ToolRegistry {
  private readonly tools = new Map<ToolId, MapTool>();
  private current: MapTool | null = null;

  add(tool: MapTool): this {
    if (this.tools.has(tool.id)) throw new Error(`A map tool "${tool.id}" is registered already.`);
    this.tools.set(tool.id, tool);
    return this;
  }

  get(id: ToolId): MapTool | undefined {
    return this.tools.get(id);
  }

  /** The active tool's ID, or null. */
  active(): ToolId | null {
    return this.current?.id ?? null;
  }

  /** Makes `id` the active tool (null: none); a tool not registered leaves none active. */
  activate(id: ToolId | null): void {
    const next = id === null ? null : (this.tools.get(id) ?? null);
    if (next === this.current) return;
    this.current?.disable();
    this.current = next;
    next?.enable();
  }

  mapClick(at: MapPoint): boolean {
    return this.current?.mapClick(at) ?? false;
  }

  pinClick(localId: string, at: MapPoint, title: string, clicked: MapPoint | null): boolean {
    return this.current?.pinClick(localId, at, title, clicked) ?? false;
  }

  key(event: KeyboardEvent): boolean {
    return this.current?.key(event) ?? false;
  }

  /** Every tool off (the map is going away). */
  clear(): void {
    this.activate(null);
    this.tools.clear();
  }
}
