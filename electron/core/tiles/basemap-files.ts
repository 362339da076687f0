// The basemap files, open: each file basemap's file is opened on first use and kept open, looked at
// on disk again at most every FILE_CHECK_EVERY_MS (still there? replaced by a newer export?), and a
// file that vanishes or breaks keeps its entry with a `problem` sentence until it is back or removed;
// the hosts are told when a problem appears or goes away. A file that breaks a read limit, or that
// was being read when the last run died, is turned off with its reason, across restarts, until the
// user chooses it again: the ids of files being opened (and read for the first time after opening)
// are written to the settings before and cleared after (BASEMAPS_READING_KEY).
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { KeyValueStore } from '../profiles/kv';
import type { Clock } from '../clock';
import { STREET_ID, type BasemapStore, type StoredFile } from './basemap-store';
import { openTileFile, type TileFile, type TileFileInfo } from './files';
import type { MbtilesPool } from './mbtiles-pool';

/**
 * The basemap files being opened (or read for the first time) right now, written before and cleared
 * after: a file still named here at start made the last run stop, and is turned off instead of
 * being opened again, so no file can take Sitewalk down twice.
 */
export const BASEMAPS_READING_KEY = 'basemapsReading';
/** A file is looked at on disk (still there? replaced?) at most this often while its tiles are served. */
const FILE_CHECK_EVERY_MS = 5_000;

export interface OpenFile {
  file: TileFile | null;
  problem: string | null;
  checkedAt: number;
  /** No tile has been read since it was opened: the first read is guarded like the opening. */
  fresh?: boolean;
}

export interface BasemapFiles {
  /** The file of a basemap, opened; `force` looks at it on disk now. Never throws: a problem is in the state. */
  fileOf(entry: StoredFile, force?: boolean): Promise<OpenFile>;
  /** Runs `work` with the file named in the settings, so a run that dies inside it is known at the next start. */
  guarded<T>(basemapId: string, work: () => Promise<T>): Promise<T>;
  /** Turns a file basemap off with its reason, kept across restarts until the user chooses it again. */
  disable(basemapId: string, reason: string): void;
  /** A file just opened to be added: kept open for its first tiles. */
  adopt(basemapId: string, file: TileFile): void;
  close(basemapId: string): Promise<void>;
  closeAll(): Promise<void>;
}

const stoppedSentence = (path: string) =>
  `Sitewalk stopped while reading the basemap file "${basename(path)}" the last time it ran, so it is turned off. Choose it again to try once more, or remove it.`;

const missingSentence = (entry: StoredFile) => `The basemap file "${basename(entry.path)}" is no longer at ${entry.path} (moved or deleted?). Put it back, or remove this basemap.`;

export interface BasemapFilesOptions {
  store: BasemapStore;
  settings: KeyValueStore;
  /** The process MBTiles files are read in. */
  mbtiles: MbtilesPool;
  clock: Pick<Clock, 'now'>;
  log: (line: string) => void;
  isClosed: () => boolean;
  /** A file's problem appeared or went away. */
  onChange: () => void;
}

export function createBasemapFiles(options: BasemapFilesOptions): BasemapFiles {
  const { store, settings, clock, log, isClosed } = options;
  /** Files opened (or found unreadable), by basemap id; a promise while opening. */
  const files = new Map<string, Promise<OpenFile>>();
  const reported = new Map<string, string | null>();

  // ---------- files that take Sitewalk down, or break a read limit ----------

  const reading = new Set<string>();
  function markReading(basemapId: string, on: boolean): void {
    if (on) reading.add(basemapId);
    else if (!reading.delete(basemapId)) return;
    if (reading.size > 0) settings.set(BASEMAPS_READING_KEY, [...reading]);
    else settings.delete(BASEMAPS_READING_KEY);
  }

  async function guarded<T>(basemapId: string, work: () => Promise<T>): Promise<T> {
    markReading(basemapId, true);
    try {
      return await work();
    } finally {
      markReading(basemapId, false);
    }
  }

  function disable(basemapId: string, reason: string): void {
    const stored = store.read();
    const entry = stored.files.find((file) => file.id === basemapId);
    if (!entry) return;
    entry.disabled = reason;
    if (stored.active === basemapId) stored.active = STREET_ID;
    store.write(stored);
    log(`basemaps: turned off "${entry.path}": ${reason}`);
  }

  // A file named as being read when the last run ended: that run died reading it.
  const left = settings.get(BASEMAPS_READING_KEY);
  if (Array.isArray(left)) {
    for (const basemapId of left) {
      const entry = store.now().files.find((file) => file.id === basemapId);
      if (entry && !entry.disabled) disable(entry.id, stoppedSentence(entry.path));
    }
    settings.delete(BASEMAPS_READING_KEY);
  }

  // ---------- opening, and looking again ----------

  /** Opens a file, or reopens it when it changed on disk; records (and reports) a problem instead of throwing. */
  async function openFor(entry: StoredFile): Promise<OpenFile> {
    const opened = await guarded(entry.id, () => openTileFile(entry.path, options.mbtiles));
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
    const stored = store.read();
    const entry = stored.files.find((file) => file.id === basemapId);
    if (!entry) return;
    entry.info = { ...info };
    store.write(stored);
  }

  async function fileOf(entry: StoredFile, force = false): Promise<OpenFile> {
    const disabled = store.now().files.find((file) => file.id === entry.id)?.disabled;
    if (disabled) {
      await close(entry.id);
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
    if (isClosed() || !store.now().files.some((file) => file.id === entry.id)) return { file: null, problem: 'This basemap was removed.', checkedAt: clock.now() };
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
      if (!isClosed()) options.onChange();
    }
    return state;
  }

  async function close(basemapId: string): Promise<void> {
    const current = files.get(basemapId);
    files.delete(basemapId);
    reported.delete(basemapId);
    const state = await current?.catch(() => null);
    await state?.file?.close().catch(() => undefined);
  }

  return {
    fileOf,
    guarded,
    disable,
    adopt(basemapId, file) {
      files.set(basemapId, Promise.resolve({ file, problem: null, checkedAt: clock.now() }));
      reported.set(basemapId, null);
    },
    close,
    async closeAll() {
      for (const basemapId of [...files.keys()]) await close(basemapId);
    },
  };
}
