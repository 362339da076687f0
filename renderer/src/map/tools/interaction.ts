// What the user is doing with the map, as one value: which tool is active (at most one), the map's
// open context menu, the site form and the place last picked for it. Every change goes through
// nextInteraction, so starting one tool ends another in one place instead of in every component.
//
//               start(add | measure | download-area | stake | select)
//   none ───────────────────────────────────────────────────────────▶ that tool ──end / Esc──▶ none
//    │  move: start(id) ──▶ armed(id) ──drop(id)──▶ confirming(id) ──done──▶ none
//    │                        └─ cancel, select(other) ──▶ none            (the rules of site-move.ts)
//    └─ a tool started while a move waits for its confirmation leaves the move waiting.
//
// Pure: no React, no Leaflet. The shell holds it in an InteractionStore; the map's tools read it.
import type { MeasurePoint } from '../measure-result';
import type { PickedFix, SiteFormRequest } from '../../shared/ui/ui-context';
import { IDLE, nextMoveMode, type MoveEvent, type MoveMode } from './move-mode';

/** Every map tool. */
export type ToolId = 'add' | 'move' | 'measure' | 'select' | 'download-area' | 'stake';

/** A place the user picked for the form (a map click in pick mode, or My location's averaged fix). */
export interface Picked {
  lat: number;
  lng: number;
  seq: number;
  fix?: PickedFix;
}

export type ActiveTool =
  | { id: null }
  | { id: 'add'; purpose: 'new' | 'pick' }
  | { id: 'move'; phase: 'armed' | 'confirming'; localId: string }
  | { id: 'measure'; points: MeasurePoint[] }
  | { id: 'download-area' }
  | { id: 'stake'; seq: number; target: { lat: number; lon: number } | null }
  | { id: 'select' };

/** The map's context menu: the map's (a place) or a pin's (a site). */
export type MenuState = { kind: 'map'; x: number; y: number; lat: number; lng: number } | { kind: 'pin'; x: number; y: number; lat: number; lng: number; localId: string; title: string };

export interface Interaction {
  tool: ActiveTool;
  menu: MenuState | null;
  /**
   * The open site form (what opened it, and a number that changes on every opening), or null; `place`
   * is where its coordinates put the site, while they can be read (the map shows it).
   */
  form: { request: SiteFormRequest; seq: number; place?: { lat: number; lng: number } | null } | null;
  /** The last place picked for the form. */
  picked: Picked | null;
  /** Counts stake requests, so a repeated "Stake here" is a new request. */
  stakeSeq: number;
}

export type InteractionEvent =
  | { type: 'start-add'; purpose: 'new' | 'pick' }
  | { type: 'start-measure' }
  /** Selecting sites on the map: a drag draws a box, a click on a pin adds or removes it. */
  | { type: 'start-select' }
  | { type: 'measure-point'; point: MeasurePoint }
  | { type: 'start-download-area' }
  | { type: 'start-stake'; target: { lat: number; lon: number } | null }
  /** My location's answer to a stake request: a place for the form, or null (cancelled). */
  | { type: 'stake-done'; place: { lat: number; lng: number; fix?: PickedFix } | null }
  /** A place picked on the map for the open form (pick mode). */
  | { type: 'pick'; lat: number; lng: number; fix?: PickedFix }
  /** Ends the active tool (or only `tool`, when it is the active one). */
  | { type: 'end'; tool?: ToolId }
  /** Esc while a tool is active: measure clears its points first, any other tool ends. */
  | { type: 'escape' }
  | { type: 'move'; event: MoveEvent }
  | { type: 'open-menu'; menu: MenuState }
  | { type: 'close-menu' }
  | { type: 'open-form'; request: SiteFormRequest }
  /** The open form's coordinates now: a place, or null while they cannot be read (or need no marker). */
  | { type: 'form-place'; place: { lat: number; lng: number } | null }
  | { type: 'close-form' };

export const NO_TOOL: ActiveTool = { id: null };

export function initialInteraction(): Interaction {
  return { tool: NO_TOOL, menu: null, form: null, picked: null, stakeSeq: 0 };
}

/** Whether a move waits for its confirmation: it is not dropped for another tool. */
function moveWaiting(tool: ActiveTool): boolean {
  return tool.id === 'move' && tool.phase === 'confirming';
}

/** Starts `tool` unless a move waits for its confirmation (its dialog is open; nothing else starts meanwhile). */
function start(state: Interaction, tool: ActiveTool): Interaction {
  if (moveWaiting(state.tool)) return state;
  return { ...state, tool, menu: null };
}

/** The move tool after a move event, by move mode's rules (move-mode.ts). */
function nextMove(tool: ActiveTool, event: MoveEvent): ActiveTool {
  const now = moveModeOf(tool);
  const next = nextMoveMode(now, event);
  if (next === now) return tool;
  if (next.phase === 'idle') return tool.id === 'move' ? NO_TOOL : tool;
  return { id: 'move', phase: next.phase, localId: next.localId };
}

export function nextInteraction(state: Interaction, event: InteractionEvent): Interaction {
  const tool = state.tool;
  switch (event.type) {
    case 'start-add':
      return start(state, { id: 'add', purpose: event.purpose });
    case 'start-measure':
      return start(state, { id: 'measure', points: [] });
    case 'start-select':
      return start(state, { id: 'select' });
    case 'measure-point':
      // A third point starts a new measurement.
      if (tool.id !== 'measure') return state;
      return { ...state, tool: { id: 'measure', points: tool.points.length >= 2 ? [event.point] : [...tool.points, event.point] } };
    case 'start-download-area':
      return start(state, { id: 'download-area' });
    case 'start-stake': {
      const next = start(state, { id: 'stake', seq: state.stakeSeq + 1, target: event.target });
      return next === state ? state : { ...next, stakeSeq: state.stakeSeq + 1 };
    }
    case 'stake-done': {
      const ended = tool.id === 'stake' ? { ...state, tool: NO_TOOL } : state;
      return event.place ? { ...ended, picked: pickOf(state, event.place) } : ended;
    }
    case 'pick':
      // A pick ends pick mode and goes to the form; in add mode a click opens a new form instead (the shell's).
      return { ...state, tool: tool.id === 'add' ? NO_TOOL : tool, picked: pickOf(state, event) };
    case 'end':
      if (tool.id === null || (event.tool !== undefined && event.tool !== tool.id) || moveWaiting(tool)) return state;
      return { ...state, tool: NO_TOOL };
    case 'escape':
      if (tool.id === 'measure' && tool.points.length > 0) return { ...state, tool: { id: 'measure', points: [] } };
      if (tool.id === null || moveWaiting(tool)) return state;
      return { ...state, tool: NO_TOOL };
    case 'move': {
      const next = nextMove(tool, event.event);
      return next === tool ? state : { ...state, tool: next, menu: event.event.type === 'start' ? null : state.menu };
    }
    case 'open-menu':
      return { ...state, menu: event.menu };
    case 'close-menu':
      return state.menu ? { ...state, menu: null } : state;
    case 'open-form': {
      // The form takes over from add and pick mode, and from a move not yet dropped.
      const ends = tool.id === 'add' || (tool.id === 'move' && tool.phase === 'armed');
      return { ...state, tool: ends ? NO_TOOL : tool, menu: null, form: { request: event.request, seq: (state.form?.seq ?? 0) + 1 } };
    }
    case 'form-place': {
      const was = state.form?.place ?? null;
      const place = event.place;
      if (!state.form || (was === null ? place === null : place !== null && was.lat === place.lat && was.lng === place.lng)) return state;
      return { ...state, form: { ...state.form, place } };
    }
    case 'close-form':
      return { ...state, form: null, tool: tool.id === 'add' || tool.id === 'stake' ? NO_TOOL : tool };
  }
}

function pickOf(state: Interaction, place: { lat: number; lng: number; fix?: PickedFix }): Picked {
  return { lat: place.lat, lng: place.lng, seq: (state.picked?.seq ?? 0) + 1, ...(place.fix ? { fix: place.fix } : {}) };
}

/** The move tool's state in site-move.ts's words. */
export function moveModeOf(tool: ActiveTool): MoveMode {
  return tool.id === 'move' ? { phase: tool.phase, localId: tool.localId } : IDLE;
}
