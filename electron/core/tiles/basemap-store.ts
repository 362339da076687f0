// The basemaps as stored in the core's settings store under 'basemaps': the active one, the street
// map's own fields (its server is the Settings tile server), the tile servers and the files. Parsed
// with zod once and kept (conf reads its file from disk on every get, and the tile route asks on
// every tile); an entry that no longer parses is skipped and logged. Only write() changes them.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Bounds } from '../../shared/contract/basemaps';
import type { KeyValueStore } from '../profiles/kv';

export const STREET_ID = 'street';
export const BASEMAPS_SETTING_KEY = 'basemaps';
/** Zoom range of a tile server the user did not give one for (OpenStreetMap's). */
export const SERVER_ZOOM = { min: 0, max: 19 } as const;

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
export type StoredServer = z.infer<typeof storedServerSchema>;
export type StoredFile = z.infer<typeof storedFileSchema>;
type StoredStreet = z.infer<typeof storedStreetSchema>;

export interface Stored {
  active: string;
  street: StoredStreet;
  servers: StoredServer[];
  files: StoredFile[];
}

/** A basemap as the tile route and the area download need it. */
export type BasemapSource =
  | { id: string; kind: 'server'; name: string; template: string; minZoom: number; maxZoom: number; bounds: null; allowsDownload: boolean }
  | { id: string; kind: 'file'; name: string; template: null; minZoom: number; maxZoom: number; bounds: Bounds | null; allowsDownload: false };

export interface BasemapStore {
  /** The stored basemaps as kept: not to be changed (read() gives a copy). */
  now(): Stored;
  /** A copy of the stored basemaps to change and write(). */
  read(): Stored;
  write(stored: Stored): void;
  streetSource(stored: Stored): BasemapSource & { kind: 'server' };
  sourceIn(stored: Stored, basemapId: string): BasemapSource | null;
  /** The active basemap's id, the street map when the stored one is gone. */
  activeId(stored: Stored): string;
  /** A fresh id, `<prefix>-<8 hex>`, not used by any basemap in `stored`. */
  newId(prefix: string, stored: Stored): string;
}

export function createBasemapStore(options: { settings: KeyValueStore; streetTemplate: () => string; log: (line: string) => void }): BasemapStore {
  const { settings, log } = options;
  let snapshot: Stored | null = null;
  const now = (): Stored => (snapshot ??= parse());

  function parse(): Stored {
    const raw = settings.get(BASEMAPS_SETTING_KEY);
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

  function streetSource(stored: Stored): BasemapSource & { kind: 'server' } {
    const minZoom = stored.street.minZoom ?? SERVER_ZOOM.min;
    return {
      id: STREET_ID,
      kind: 'server',
      name: stored.street.name ?? 'Street',
      template: options.streetTemplate(),
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

  return {
    now,
    read: () => structuredClone(now()),
    write(stored) {
      settings.set(BASEMAPS_SETTING_KEY, stored);
      snapshot = structuredClone(stored);
    },
    streetSource,
    sourceIn,
    activeId: (stored) => (sourceIn(stored, stored.active) ? stored.active : STREET_ID),
    newId(prefix, stored) {
      for (;;) {
        const id = `${prefix}-${randomBytes(4).toString('hex')}`;
        if (!sourceIn(stored, id)) return id;
      }
    },
  };
}
