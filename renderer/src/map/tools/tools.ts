// Every map tool, registered once per map. A new tool is a MapTool subclass in this folder, one line
// here, and a way into the interaction (a start event in interaction.ts); see ARCHITECTURE.md.
import { AddTool } from './add-tool';
import { MeasureTool } from './measure-tool';
import { MoveTool } from './move-tool';
import { DownloadAreaTool, StakeTool } from './passive-tools';
import { SelectTool } from './select-tool';
import type { ToolHost } from './map-tool';
import { ToolRegistry } from './registry';

export function createTools(host: ToolHost): ToolRegistry {
  return new ToolRegistry().add(new AddTool(host)).add(new MoveTool(host)).add(new MeasureTool(host)).add(new DownloadAreaTool(host)).add(new StakeTool(host)).add(new SelectTool(host));
}
