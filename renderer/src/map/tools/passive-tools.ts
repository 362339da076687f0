// Tools whose work happens outside the map: while one is active no other tool is, and the map keeps
// its plain behaviour (pan, select). "Download this area…" is active while its dialog is open (the
// basemaps feature draws the dialog); "Stake here" while My location averages a position for the form.
import { MapTool } from './map-tool';

export class DownloadAreaTool extends MapTool {
  readonly id = 'download-area';
}

export class StakeTool extends MapTool {
  readonly id = 'stake';
}
