// The basemaps the map can show, and the one tile route that serves them all:
// /tiles/{basemapId}/{z}/{x}/{y} (and /tiles/{z}/{x}/{y}, always the street map, so a URL always
// means the same tiles to the page's browser cache). Kinds:
//   street     the Settings tile server (tileUrl/tileAttribution): nothing changes for existing users;
//              always listed, never removed.
//   satellite, topo, custom
//              tile servers the user configures. satellite and topo are not listed until configured
//              (a switcher entry that shows nothing helps nobody); saving one with no id gives it the
//              id 'satellite' / 'topo' when free.
//   mbtiles, pmtiles
//              raster files read in place (files.ts); one that vanishes or breaks keeps its entry with
//              a `problem` sentence and serves no tiles, until it is back or removed.
// Stored in the core's settings store under 'basemaps' (zod-parsed on read; an entry that no longer
// parses is skipped and logged). Servers share one tile cache, each template in its own folder.
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { BasemapFileInput, BasemapSourceInput, BasemapView, Bounds } from '../../shared/contract/basemaps';
import { refuse, type Result } from '../../shared/result';
import { findXmlForbidden } from '../../shared/validation/index';
import type { KeyValueStore } from '../profiles/kv';
import type { Clock } from '../clock';
import type { FetchLike } from '../service/types';
import { createTileCache, type TileAnswer, type TileCache, type TileCacheOptions, type TileMiss } from './cache';
import { fillTemplate, inRange, tileRange, validCoords, type TileCoords } from './coords';
import { downloadRefusal } from './download-policy';
import { openTileFile, sniffImageType, type TileFile, type TileFileInfo } from './files';
import { TileFileLimitError } from './limits';
import { resolvedTemplateIssue, templateAddressIssue } from './template-policy';

export const STREET_ID = 'street';
export const BASEMAPS_SETTING_KEY = 'basemaps';
/**
 * The basemap files being opened (or read for the first time) right now, written before and cleared
 * after: a file still named here at start made the last run stop, and is turned off instead of
 * being opened again, so no file can take Sitewalk down twice.
 */
export const BASEMAPS_READING_KEY = 'basemapsReading';
/** Zoom range of a tile server the user did not give one for (OpenStreetMap's). */
const SERVER_ZOOM = { min: 0, max: 19 } as const;
/** How long the page's browser keeps a tile read from a file. */
const FILE_TILE_MAX_AGE_S = 300;
/** A file is looked at on disk (still there? replaced?) at most this often while its tiles are served. */
const FILE_CHECK_EVERY_MS = 5_000;

const zoom = z.number().int().min(0).max(22);
const storedServerSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(80),
  kind: z.enum(['satellite', 'topo', 'custom']),
  template: z.string().min(1).max(2000),
  attribution: z.string().max(500),
  minZoom: zoom,
  maxZoom: zoom,
  allowsDownload: z.boolean(),
});
const boundsSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const storedFileSchema = z.object({
  id: z.string().min(1).max(100),
  path: z.string().min(1).max(4096),
  /** The user's name, or null for the file's own. */
  name: z.string().max(80).nullable(),
  kind: z.enum(['mbtiles', 'pmtiles']),
  /** Why the file was turned off (it broke a read limit, or Sitewalk stopped while reading it); null: on. */
  disabled: z.string().max(2000).nullable().optional(),
  info: z.object({
    name: z.string(),
    attribution: z.string(),
    bounds: boundsSchema.nullable(),
    minZoom: zoom,
    maxZoom: zoom,
    contentType: z.string(),
    sizeBytes: z.number(),
    mtimeMs: z.number(),
  }),
});
const storedStreetSchema = z.object({ minZoom: zoom.optional(), maxZoom: zoom.optional(), allowsDownload: z.boolean().optional(), name: z.string().max(80).optional() });
type StoredServer = z.infer<typeof storedServerSchema>;
type StoredFile = z.infer<typeof storedFileSchema>;
type StoredStreet = z.infer<typeof storedStreetSchema>;

interface Stored {
  active: string;
  street: StoredStreet;
  servers: StoredServer[];
  files: StoredFile[];
}

/** A basemap as the tile route and the area download need it. */
export type BasemapSource =
  | { id: string; kind: 'server'; name: string; template: string; minZoom: number; maxZoom: number; bounds: null; allowsDownload: boolean }
  | { id: string; kind: 'file'; name: string; template: null; minZoom: number; maxZoom: number; bounds: Bounds | null; allowsDownload: false };

export interface BasemapsOptions {
  dataDir: string;
  /** The core's settings store. */
  settings: KeyValueStore;
  /** The Settings tile server, read on every request: the street basemap. */
  street: () => { tileUrl: string; tileAttribution: string };
  /** Saves the street map's server through the Settings (their checks, their event). */
  saveStreet: (tileUrl: string, attribution: string) => Promise<Result<unknown>>;
  /** Transport to tile servers (the Electron host passes net.fetch). */
  fetch?: FetchLike;
  userAgent?: string;
  /** Tile cache settings (tests shorten the back-off). */
  cache?: Partial<Pick<TileCacheOptions, 'retryAfterMs' | 'maxAgeMs' | 'timeoutMs' | 'maxBytes' | 'subdomains'>>;
  clock?: Pick<Clock, 'now'>;
  log?: (line: string) => void;
  /** The list changed (added, removed, switched, a file became unreadable or readable again). */
  onChange: () => void;
}

export interface Basemaps {
  list(): Promise<BasemapView[]>;
  use(basemapId: string): Promise<Result<BasemapView[]>>;
  saveSource(input: BasemapSourceInput): Promise<Result<BasemapView[]>>;
  addFile(input: BasemapFileInput): Promise<Result<BasemapView[]>>;
  remove(basemapId: string): Promise<Result<BasemapView[]>>;
  /** What a host answers for a path under /tiles/. Never throws. */
  tileFor(path: string): Promise<TileAnswer>;
  source(basemapId: string): BasemapSource | null;
  /** The cache the servers' tiles go through (created on first use). */
  cache(): TileCache;
  close(): Promise<void>;
}

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

const TILE_ROUTE = /^\/tiles\/(?:([A-Za-z][A-Za-z0-9_-]{0,99})\/)?(\d{1,3})\/(\d{1,8})\/(\d{1,8})$/;

function miss(status: TileMiss['status'], reason: TileMiss['reason'], message: string, detail: string): TileMiss {
  return { ok: false, status, reason, message, detail };
}

interface OpenFile {
  file: TileFile | null;
  problem: string | null;
  checkedAt: number;
  /** No tile has been read since it was opened: the first read is guarded like the opening. */
  fresh?: boolean;
}

const stoppedSentence = (path: string) =>
  `Sitewalk stopped while reading the basemap file "${basename(path)}" the last time it ran, so it is turned off. Choose it again to try once more, or remove it.`;

export function createBasemaps(options: BasemapsOptions): Basemaps {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? { now: () => Date.now() };
  let tileCache: TileCache | null = null;
  let closed = false;
  /** Files opened (or found unreadable), by basemap id; a promise while opening. */
  const files = new Map<string, Promise<OpenFile>>();
  const reported = new Map<string, string | null>();

  function cache(): TileCache {
    tileCache ??= createTileCache({
      dataDir: options.dataDir,
      template: () => options.street().tileUrl,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      ...options.cache,
      log,
    });
    return tileCache;
  }

  // ---------- storage ----------

  /**
   * The stored basemaps, parsed once and kept (conf reads its file from disk on every get, and the
   * tile route asks on every tile); only write() changes them. Not to be changed: read() gives a copy.
   */
  let snapshot: Stored | null = null;
  function storedNow(): Stored {
    return (snapshot ??= parse());
  }

  /** A copy of the stored basemaps to change and write(). */
  function read(): Stored {
    return structuredClone(storedNow());
  }

  function parse(): Stored {
    const raw = options.settings.get(BASEMAPS_SETTING_KEY);
    const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const list = <T>(items: unknown, schema: z.ZodType<T>, what: string): T[] =>
      (Array.isArray(items) ? items : []).flatMap((item) => {
        const parsed = schema.safeParse(item);
        if (parsed.success) return [parsed.data];
        log(`basemaps: a stored ${what} could not be read and is left out (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
        return [];
      });
    const street = storedStreetSchema.safeParse(value['street']);
    return {
      active: typeof value['active'] === 'string' ? value['active'] : STREET_ID,
      street: street.success ? street.data : {},
      servers: list(value['servers'], storedServerSchema, 'tile server'),
      files: list(value['files'], storedFileSchema, 'basemap file'),
    };
  }

  function write(stored: Stored): void {
    options.settings.set(BASEMAPS_SETTING_KEY, stored);
    snapshot = structuredClone(stored);
  }

  function streetSource(stored: Stored): BasemapSource & { kind: 'server' } {
    const minZoom = stored.street.minZoom ?? SERVER_ZOOM.min;
    return {
      id: STREET_ID,
      kind: 'server',
      name: stored.street.name ?? 'Street',
      template: options.street().tileUrl,
      minZoom,
      maxZoom: Math.max(minZoom, stored.street.maxZoom ?? SERVER_ZOOM.max),
      bounds: null,
      allowsDownload: stored.street.allowsDownload ?? false,
    };
  }

  function sourceIn(stored: Stored, basemapId: string): BasemapSource | null {
    if (basemapId === STREET_ID) return streetSource(stored);
    const server = stored.servers.find((entry) => entry.id === basemapId);
    if (server) return { ...server, kind: 'server', bounds: null };
    const file = stored.files.find((entry) => entry.id === basemapId);
    if (file) {
      return { id: file.id, kind: 'file', name: file.name ?? file.info.name, template: null, minZoom: file.info.minZoom, maxZoom: file.info.maxZoom, bounds: file.info.bounds, allowsDownload: false };
    }
    return null;
  }

  function activeId(stored: Stored): string {
    return sourceIn(stored, stored.active) ? stored.active : STREET_ID;
  }

  // ---------- files ----------

  const missingSentence = (entry: StoredFile) => `The basemap file "${basename(entry.path)}" is no longer at ${entry.path} (moved or deleted?). Put it back, or remove this basemap.`;

  // ---------- files that take Sitewalk down, or break a read limit ----------

  const reading = new Set<string>();
  function markReading(basemapId: string, on: boolean): void {
    if (on) reading.add(basemapId);
    else if (!reading.delete(basemapId)) return;
    if (reading.size > 0) options.settings.set(BASEMAPS_READING_KEY, [...reading]);
    else options.settings.delete(BASEMAPS_READING_KEY);
  }

  /** Runs `work` with the file named in the settings, so a run that dies inside it is known at the next start. */
  async function guarded<T>(basemapId: string, work: () => Promise<T>): Promise<T> {
    markReading(basemapId, true);
    try {
      return await work();
    } finally {
      markReading(basemapId, false);
    }
  }

  /** Turns a file basemap off with its reason, kept across restarts until the user chooses it again. */
  function disable(basemapId: string, reason: string): void {
    const stored = read();
    const entry = stored.files.find((file) => file.id === basemapId);
    if (!entry) return;
    entry.disabled = reason;
    if (stored.active === basemapId) stored.active = STREET_ID;
    write(stored);
    log(`basemaps: turned off "${entry.path}": ${reason}`);
  }

  // A file named as being read when the last run ended: that run died reading it.
  const left = options.settings.get(BASEMAPS_READING_KEY);
  if (Array.isArray(left)) {
    for (const basemapId of left) {
      const entry = storedNow().files.find((file) => file.id === basemapId);
      if (entry && !entry.disabled) disable(entry.id, stoppedSentence(entry.path));
    }
    options.settings.delete(BASEMAPS_READING_KEY);
  }

  /** Opens a file, or reopens it when it changed on disk; records (and reports) a problem instead of throwing. */
  async function openFor(entry: StoredFile): Promise<OpenFile> {
    const opened = await guarded(entry.id, () => openTileFile(entry.path));
    if (!opened.ok) {
      const gone = opened.detail === 'ENOENT';
      if (opened.limit) disable(entry.id, opened.message);
      return { file: null, problem: gone ? missingSentence(entry) : opened.message, checkedAt: clock.now() };
    }
    if (opened.file.info.kind !== entry.kind) {
      await opened.file.close();
      return { file: null, problem: `The basemap file "${basename(entry.path)}" was replaced by a file of another kind; remove this basemap and add the file again.`, checkedAt: clock.now() };
    }
    // A file replaced by a newer export: keep the entry, take the file's new facts.
    if (opened.file.info.mtimeMs !== entry.info.mtimeMs || opened.file.info.sizeBytes !== entry.info.sizeBytes) updateInfo(entry.id, opened.file.info);
    return { file: opened.file, problem: null, checkedAt: clock.now(), fresh: true };
  }

  function updateInfo(basemapId: string, info: TileFileInfo): void {
    const stored = read();
    const entry = stored.files.find((file) => file.id === basemapId);
    if (!entry) return;
    entry.info = { ...info };
    write(stored);
  }

  /** The file of a basemap, opened; looked at on disk again at most every FILE_CHECK_EVERY_MS. */
  async function fileOf(entry: StoredFile, force = false): Promise<OpenFile> {
    const disabled = storedNow().files.find((file) => file.id === entry.id)?.disabled;
    if (disabled) {
      await closeFile(entry.id);
      reported.set(entry.id, disabled);
      return { file: null, problem: disabled, checkedAt: clock.now() };
    }
    const current = files.get(entry.id);
    if (current) {
      const state = await current;
      if (!force && clock.now() - state.checkedAt < FILE_CHECK_EVERY_MS) return state;
      if (files.get(entry.id) !== current) return fileOf(entry, force);
      const next = recheck(entry, state);
      files.set(entry.id, next);
      return settle(entry.id, next);
    }
    // Removed (or everything closed) while a tile was being read: never open it again for that read,
    // or the file would stay open, unlisted, until the app quits.
    if (closed || !storedNow().files.some((file) => file.id === entry.id)) return { file: null, problem: 'This basemap was removed.', checkedAt: clock.now() };
    const opening = openFor(entry);
    files.set(entry.id, opening);
    return settle(entry.id, opening);
  }

  async function recheck(entry: StoredFile, state: OpenFile): Promise<OpenFile> {
    const info = await stat(entry.path).catch(() => null);
    if (info && state.file && info.mtimeMs === state.file.info.mtimeMs && info.size === state.file.info.sizeBytes) {
      return { ...state, checkedAt: clock.now() };
    }
    await state.file?.close().catch(() => undefined);
    if (!info) return { file: null, problem: missingSentence(entry), checkedAt: clock.now() };
    return openFor(entry);
  }

  /** Tells the hosts when a file's problem appears or goes away. */
  async function settle(basemapId: string, work: Promise<OpenFile>): Promise<OpenFile> {
    const state = await work;
    const before = reported.has(basemapId) ? reported.get(basemapId) : null;
    reported.set(basemapId, state.problem);
    if (before !== state.problem) {
      if (state.problem) log(`basemaps: ${state.problem}`);
      if (!closed) options.onChange();
    }
    return state;
  }

  async function closeFile(basemapId: string): Promise<void> {
    const current = files.get(basemapId);
    files.delete(basemapId);
    reported.delete(basemapId);
    const state = await current?.catch(() => null);
    await state?.file?.close().catch(() => undefined);
  }

  // ---------- views ----------

  async function list(): Promise<BasemapView[]> {
    const stored = read();
    const active = activeId(stored);
    const street = streetSource(stored);
    const settings = options.street();
    const views: BasemapView[] = [
      {
        id: STREET_ID,
        name: street.name,
        kind: 'street',
        template: street.template,
        attribution: settings.tileAttribution,
        minZoom: street.minZoom,
        maxZoom: street.maxZoom,
        bounds: null,
        fileName: null,
        sizeBytes: null,
        allowsDownload: street.allowsDownload,
        downloadRefusal: downloadRefusal({ kind: 'server', template: street.template, allowsDownload: street.allowsDownload }),
        active: active === STREET_ID,
        problem: null,
      },
    ];
    for (const server of stored.servers) {
      views.push({
        id: server.id,
        name: server.name,
        kind: server.kind,
        template: server.template,
        attribution: server.attribution,
        minZoom: server.minZoom,
        maxZoom: server.maxZoom,
        bounds: null,
        fileName: null,
        sizeBytes: null,
        allowsDownload: server.allowsDownload,
        downloadRefusal: downloadRefusal({ kind: 'server', template: server.template, allowsDownload: server.allowsDownload }),
        active: active === server.id,
        problem: null,
      });
    }
    for (const entry of stored.files) {
      const state = await fileOf(entry, true);
      const info = state.file?.info ?? entry.info;
      views.push({
        id: entry.id,
        name: entry.name ?? info.name,
        kind: entry.kind,
        template: null,
        attribution: info.attribution,
        minZoom: info.minZoom,
        maxZoom: info.maxZoom,
        bounds: info.bounds,
        fileName: basename(entry.path),
        sizeBytes: info.sizeBytes,
        allowsDownload: false,
        downloadRefusal: downloadRefusal({ kind: 'file', template: null, allowsDownload: false }),
        active: active === entry.id,
        problem: state.problem,
      });
    }
    return views;
  }

  async function changed(): Promise<Result<BasemapView[]>> {
    options.onChange();
    return { ok: true, value: await list() };
  }

  function newId(prefix: string, stored: Stored): string {
    for (;;) {
      const id = `${prefix}-${randomBytes(4).toString('hex')}`;
      if (!sourceIn(stored, id)) return id;
    }
  }

  // ---------- actions ----------

  async function use(basemapId: string): Promise<Result<BasemapView[]>> {
    const stored = read();
    const source = sourceIn(stored, basemapId);
    if (!source) return refuse('basemapId', 'There is no such basemap (it may have been removed).');
    if (source.kind === 'file') {
      const entry = stored.files.find((file) => file.id === basemapId)!;
      // Choosing a file that was turned off is the user's go-ahead to try it once more.
      if (entry.disabled) {
        entry.disabled = null;
        write(stored);
      }
      const state = await fileOf(entry, true);
      if (state.problem) return refuse('basemapId', state.problem);
    }
    const latest = read();
    latest.active = basemapId;
    write(latest);
    return changed();
  }

  async function saveSource(input: BasemapSourceInput): Promise<Result<BasemapView[]>> {
    const template = input.template.trim();
    const attribution = input.attribution.trim();
    const minZoom = input.minZoom ?? SERVER_ZOOM.min;
    const maxZoom = input.maxZoom ?? SERVER_ZOOM.max;
    if (minZoom > maxZoom) return refuse('minZoom', 'The smallest zoom must not be above the largest.');
    const stored = read();
    if (input.id === STREET_ID || (input.id === undefined && input.kind === 'street')) {
      // The street map is the Settings tile server: saved through the Settings, with their checks.
      const saved = await options.saveStreet(template, attribution);
      if (!saved.ok) return { ok: false, issues: saved.issues.map((issue) => ({ ...issue, field: issue.field === 'tileUrl' ? 'template' : issue.field === 'tileAttribution' ? 'attribution' : issue.field })) };
      const latest = read();
      latest.street = { name: input.name.trim(), minZoom, maxZoom, allowsDownload: input.allowsDownload ?? false };
      write(latest);
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
    if (sameAddress(options.street().tileUrl) === address) return refuse('template', 'This address is already the street map (the tile server in the Settings).');
    const fields = { name: input.name.trim(), kind: input.kind, template, attribution, minZoom, maxZoom, allowsDownload: input.allowsDownload ?? false };
    if (input.id !== undefined) {
      const index = stored.servers.findIndex((server) => server.id === input.id);
      if (index === -1) {
        return refuse('id', stored.files.some((file) => file.id === input.id) ? 'A basemap file has no server address to edit.' : 'There is no such tile server (it may have been removed).');
      }
      stored.servers[index] = { id: input.id, ...fields };
    } else {
      const wellKnown = input.kind !== 'custom' && !sourceIn(stored, input.kind);
      stored.servers.push({ id: wellKnown ? input.kind : newId('server', stored), ...fields });
    }
    write(stored);
    return changed();
  }

  async function addFile(input: BasemapFileInput): Promise<Result<BasemapView[]>> {
    const path = input.path.trim();
    if (!isAbsolute(path)) return refuse('path', 'Give the file\'s full path, like /home/me/maps/area.pmtiles or C:\\Maps\\area.mbtiles.');
    const full = resolve(path);
    const before = read();
    const same = before.files.find((file) => file.path === full);
    if (same) return refuse('path', `This file is already a basemap ("${same.name ?? same.info.name}").`);
    const opened = await openTileFile(full);
    if (!opened.ok) return refuse('path', opened.message);
    const stored = read();
    const entry: StoredFile = { id: newId('file', stored), path: full, name: input.name?.trim() ?? null, kind: opened.file.info.kind, info: { ...opened.file.info } };
    stored.files.push(entry);
    write(stored);
    files.set(entry.id, Promise.resolve({ file: opened.file, problem: null, checkedAt: clock.now() }));
    reported.set(entry.id, null);
    return changed();
  }

  async function remove(basemapId: string): Promise<Result<BasemapView[]>> {
    const stored = read();
    if (basemapId === STREET_ID) return refuse('basemapId', 'The street map is the tile server in the Settings; change it there. It cannot be removed.');
    const server = stored.servers.find((entry) => entry.id === basemapId);
    const file = stored.files.find((entry) => entry.id === basemapId);
    if (!server && !file) return refuse('basemapId', 'There is no such basemap (it may have been removed already).');
    stored.servers = stored.servers.filter((entry) => entry.id !== basemapId);
    stored.files = stored.files.filter((entry) => entry.id !== basemapId);
    if (stored.active === basemapId) stored.active = STREET_ID;
    write(stored);
    if (file) await closeFile(basemapId);
    // The tiles an area download kept for this server go with it, unless another basemap uses the same server.
    if (server && server.template !== options.street().tileUrl && !stored.servers.some((entry) => entry.template === server.template)) {
      await cache().dropKept(server.template).catch(() => undefined);
    }
    return changed();
  }

  // ---------- the tile route ----------

  async function tileFor(path: string): Promise<TileAnswer> {
    if (closed) return miss(503, 'closed', 'Sitewalk is closing.', 'the basemaps are closed');
    const match = TILE_ROUTE.exec(path);
    if (!match) return miss(400, 'bad-coordinates', 'This is not a map tile address.', `expected /tiles/{basemap}/{z}/{x}/{y}, got ${path.slice(0, 80)}`);
    const coords: TileCoords = { z: Number(match[2]), x: Number(match[3]), y: Number(match[4]) };
    if (!validCoords(coords)) return miss(400, 'bad-coordinates', 'There is no map tile at these coordinates.', `z/x/y = ${coords.z}/${coords.x}/${coords.y}`);
    const basemapId = match[1] ?? STREET_ID;
    const stored = storedNow();
    const source = sourceIn(stored, basemapId);
    if (!source) return miss(404, 'not-found', 'There is no such basemap.', `basemap ${basemapId.slice(0, 100)}`);
    if (coords.z < source.minZoom || coords.z > source.maxZoom) {
      return miss(404, 'not-found', 'This basemap has no tiles at this zoom.', `${basemapId}: zoom ${coords.z} outside ${source.minZoom}-${source.maxZoom}`);
    }
    if (source.kind === 'server') return cache().get(coords, { template: source.template });

    if (source.bounds && !inRange(tileRange(source.bounds, coords.z), coords)) {
      return miss(404, 'not-found', 'This basemap file has no tiles here.', `${basemapId}: ${coords.z}/${coords.x}/${coords.y} outside its bounds`);
    }
    const entry = stored.files.find((file) => file.id === basemapId)!;
    const state = await fileOf(entry);
    if (!state.file) return miss(404, 'file-problem', state.problem ?? 'The basemap file cannot be read.', entry.path);
    let bytes: Buffer | null;
    try {
      const file = state.file;
      if (state.fresh) {
        state.fresh = false;
        bytes = await guarded(entry.id, () => file.tile(coords));
      } else {
        bytes = await file.tile(coords);
      }
    } catch (error) {
      if (error instanceof TileFileLimitError && error.kind === 'limit') {
        disable(entry.id, error.sentence);
        await closeFile(entry.id);
        options.onChange();
        return miss(404, 'file-problem', error.sentence, error.message);
      }
      // Damaged or cut short since it was opened: look at it again, and say so in the list.
      const again = await fileOf(entry, true);
      if (!again.file) return miss(404, 'file-problem', again.problem ?? 'The basemap file cannot be read.', error instanceof Error ? error.message : String(error));
      bytes = await again.file.tile(coords).catch((retryError: unknown) => {
        if (retryError instanceof TileFileLimitError && retryError.kind === 'limit') disable(entry.id, retryError.sentence);
        return null;
      });
    }
    if (!bytes) return miss(404, 'not-found', 'This basemap file has no tile here.', `${basemapId}: ${coords.z}/${coords.x}/${coords.y}`);
    const contentType = sniffImageType(bytes);
    if (!contentType) return miss(502, 'refused', 'This tile of the basemap file is not an image.', `${basemapId}: ${coords.z}/${coords.x}/${coords.y}`);
    return { ok: true, bytes, contentType, source: 'file', fetchedAt: state.file.info.mtimeMs, maxAgeSeconds: FILE_TILE_MAX_AGE_S };
  }

  return {
    list,
    use,
    saveSource,
    addFile,
    remove,
    tileFor,
    source: (basemapId) => sourceIn(storedNow(), basemapId),
    cache,
    async close() {
      closed = true;
      for (const basemapId of [...files.keys()]) await closeFile(basemapId);
      await tileCache?.close();
    },
  };
}
