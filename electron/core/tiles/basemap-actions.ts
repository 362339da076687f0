// What the user does to the basemaps: switch to one, save a tile server (the street map is saved
// through the Settings, with their checks and event), add a file, remove one. Each action checks its
// input and says what is wrong in a sentence that names the field; it changes the stored basemaps in
// one write and answers with the new list.
import { isAbsolute, resolve } from 'node:path';
import type { BasemapFileInput, BasemapSourceInput, BasemapView } from '../../shared/contract/basemaps';
import { refuse, type Result } from '../../shared/result';
import { findXmlForbidden } from '../../shared/validation/index';
import type { BasemapFiles } from './basemap-files';
import { SERVER_ZOOM, STREET_ID, type BasemapStore, type StoredFile } from './basemap-store';
import type { TileCache } from './cache';
import { fillTemplate } from './coords';
import { openTileFile } from './files';
import type { MbtilesPool } from './mbtiles-pool';
import { resolvedTemplateIssue, templateAddressIssue } from './template-policy';

/** A server's URL template: http(s), {z}, {x} and {y} (or {-y}), placeholders Leaflet fills, no spaces. */
export function serverTemplateIssue(template: string): string | null {
  const text = template.trim();
  if (!/^https?:\/\/[^/{}\s]*[^/\s]*/i.test(text)) return 'The tile server address must start with https:// (or http://), like https://tiles.example.com/{z}/{x}/{y}.png.';
  if (!text.includes('{z}') || !text.includes('{x}') || !(text.includes('{y}') || text.includes('{-y}'))) return 'The tile server address must contain {z}, {x} and {y}, where the map puts the tile numbers.';
  if (/\s/.test(text)) return 'The tile server address cannot contain spaces.';
  if (fillTemplate(text, { z: 0, x: 0, y: 0 }, 'a') === null) return 'The tile server address has a {placeholder} other than {s}, {z}, {x}, {y}, {-y} or {r}.';
  const address = templateAddressIssue(text);
  if (address) return address;
  try {
    new URL(fillTemplate(text, { z: 0, x: 0, y: 0 }, 'a')!);
  } catch {
    return 'The tile server address is not a valid web address.';
  }
  return null;
}

/** A tile address as compared for duplicates: trimmed, scheme and host in lower case (paths may differ by case). */
export function sameAddress(template: string): string {
  const trimmed = template.trim();
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(trimmed);
  return match ? `${match[1]!.toLowerCase()}${match[2]}` : trimmed;
}

function attributionIssue(attribution: string): string | null {
  if (/[<>]/.test(attribution)) return 'The attribution is shown as text: it cannot contain < or >.';
  if (findXmlForbidden(attribution)) return 'The attribution contains an invisible control character.';
  return null;
}

export interface BasemapActionsOptions {
  store: BasemapStore;
  files: BasemapFiles;
  /** The process MBTiles files are read in. */
  mbtiles: MbtilesPool;
  /** The cache the servers' tiles go through. */
  cache: () => TileCache;
  /** The Settings tile server: the street map. */
  streetTemplate: () => string;
  /** Saves the street map's server through the Settings (their checks, their event). */
  saveStreet: (tileUrl: string, attribution: string) => Promise<Result<unknown>>;
  /** Tells the hosts the list changed and answers with it. */
  changed: () => Promise<Result<BasemapView[]>>;
}

export interface BasemapActions {
  use(basemapId: string): Promise<Result<BasemapView[]>>;
  saveSource(input: BasemapSourceInput): Promise<Result<BasemapView[]>>;
  addFile(input: BasemapFileInput): Promise<Result<BasemapView[]>>;
  remove(basemapId: string): Promise<Result<BasemapView[]>>;
}

export function basemapActions(options: BasemapActionsOptions): BasemapActions {
  const { store, files, changed } = options;

  async function use(basemapId: string): Promise<Result<BasemapView[]>> {
    const stored = store.read();
    const source = store.sourceIn(stored, basemapId);
    if (!source) return refuse('basemapId', 'There is no such basemap (it may have been removed).');
    if (source.kind === 'file') {
      const entry = stored.files.find((file) => file.id === basemapId)!;
      // Choosing a file that was turned off is the user's go-ahead to try it once more.
      if (entry.disabled) {
        entry.disabled = null;
        store.write(stored);
      }
      const state = await files.fileOf(entry, true);
      if (state.problem) return refuse('basemapId', state.problem);
    }
    const latest = store.read();
    latest.active = basemapId;
    store.write(latest);
    return changed();
  }

  async function saveSource(input: BasemapSourceInput): Promise<Result<BasemapView[]>> {
    const template = input.template.trim();
    const attribution = input.attribution.trim();
    const minZoom = input.minZoom ?? SERVER_ZOOM.min;
    const maxZoom = input.maxZoom ?? SERVER_ZOOM.max;
    if (minZoom > maxZoom) return refuse('minZoom', 'The smallest zoom must not be above the largest.');
    const stored = store.read();
    if (input.id === STREET_ID || (input.id === undefined && input.kind === 'street')) {
      // The street map is the Settings tile server: saved through the Settings, with their checks.
      const saved = await options.saveStreet(template, attribution);
      if (!saved.ok) return { ok: false, issues: saved.issues.map((issue) => ({ ...issue, field: issue.field === 'tileUrl' ? 'template' : issue.field === 'tileAttribution' ? 'attribution' : issue.field })) };
      const latest = store.read();
      latest.street = { name: input.name.trim(), minZoom, maxZoom, allowsDownload: input.allowsDownload ?? false };
      store.write(latest);
      return changed();
    }
    if (input.kind === 'street') return refuse('kind', 'Only the Settings tile server is the street map; choose satellite, topo or another kind.');
    const templateIssue = serverTemplateIssue(template) ?? (await resolvedTemplateIssue(template));
    if (templateIssue) return refuse('template', templateIssue);
    const attributionProblem = attributionIssue(attribution);
    if (attributionProblem) return refuse('attribution', attributionProblem);
    // The same address twice would be two names for one set of tiles (and one cache): say which has it.
    const address = sameAddress(template);
    const twin = stored.servers.find((server) => server.id !== input.id && sameAddress(server.template) === address);
    if (twin) return refuse('template', `This address is already the tile server "${twin.name}"; edit that one instead.`);
    if (sameAddress(options.streetTemplate()) === address) return refuse('template', 'This address is already the street map (the tile server in the Settings).');
    const fields = { name: input.name.trim(), kind: input.kind, template, attribution, minZoom, maxZoom, allowsDownload: input.allowsDownload ?? false };
    if (input.id !== undefined) {
      const index = stored.servers.findIndex((server) => server.id === input.id);
      if (index === -1) {
        return refuse('id', stored.files.some((file) => file.id === input.id) ? 'A basemap file has no server address to edit.' : 'There is no such tile server (it may have been removed).');
      }
      stored.servers[index] = { id: input.id, ...fields };
    } else {
      const wellKnown = input.kind !== 'custom' && !store.sourceIn(stored, input.kind);
      stored.servers.push({ id: wellKnown ? input.kind : store.newId('server', stored), ...fields });
    }
    store.write(stored);
    return changed();
  }

  async function addFile(input: BasemapFileInput): Promise<Result<BasemapView[]>> {
    const path = input.path.trim();
    if (!isAbsolute(path)) return refuse('path', 'Give the file\'s full path, like /home/me/maps/area.pmtiles or C:\\Maps\\area.mbtiles.');
    const full = resolve(path);
    const before = store.read();
    const same = before.files.find((file) => file.path === full);
    if (same) return refuse('path', `This file is already a basemap ("${same.name ?? same.info.name}").`);
    const opened = await openTileFile(full, options.mbtiles);
    if (!opened.ok) return refuse('path', opened.message);
    const stored = store.read();
    const entry: StoredFile = { id: store.newId('file', stored), path: full, name: input.name?.trim() ?? null, kind: opened.file.info.kind, info: { ...opened.file.info } };
    stored.files.push(entry);
    store.write(stored);
    files.adopt(entry.id, opened.file);
    return changed();
  }

  async function remove(basemapId: string): Promise<Result<BasemapView[]>> {
    const stored = store.read();
    if (basemapId === STREET_ID) return refuse('basemapId', 'The street map is the tile server in the Settings; change it there. It cannot be removed.');
    const server = stored.servers.find((entry) => entry.id === basemapId);
    const file = stored.files.find((entry) => entry.id === basemapId);
    if (!server && !file) return refuse('basemapId', 'There is no such basemap (it may have been removed already).');
    stored.servers = stored.servers.filter((entry) => entry.id !== basemapId);
    stored.files = stored.files.filter((entry) => entry.id !== basemapId);
    if (stored.active === basemapId) stored.active = STREET_ID;
    store.write(stored);
    if (file) await files.close(basemapId);
    // The tiles an area download kept for this server go with it, unless another basemap uses the same server.
    if (server && server.template !== options.streetTemplate() && !stored.servers.some((entry) => entry.template === server.template)) {
      await options.cache().dropKept(server.template).catch(() => undefined);
    }
    return changed();
  }

  return { use, saveSource, addFile, remove };
}
