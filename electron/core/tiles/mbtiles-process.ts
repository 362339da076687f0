// What the host and the MBTiles reader's process (mbtiles-child.ts) say to each other, and the one
// thing a host gives the core to run that process: a starter. Node hosts (the browser host, the CLI)
// fork it (mbtiles-fork.ts); Electron's main process may not (its fuses forbid running the app as
// Node), so electron/main passes a starter built on utilityProcess. The core never imports Electron.

/** What the reader is asked, of one file. Every call names the file (id, path), so a new process reopens it. */
export type MbtilesOp = { op: 'open' } | { op: 'anyTile' } | { op: 'zoomRange' } | { op: 'tile'; z: number; x: number; y: number } | { op: 'close' };
export type MbtilesCall = MbtilesOp & { id: number; fileId: number; path: string; shown: string };

export type MbtilesAnswer = { id: number } & ({ ok: true; value: unknown } | { ok: false; message: string; limit?: { sentence: string; kind: 'limit' | 'damage' } });

/** The reader's first message says it has loaded and takes calls; every other one answers a call. */
export type ReaderMessage = { ready: true } | MbtilesAnswer;

/** Files the reader keeps open at once; the least recently read is closed beyond it (reopened when asked again). */
export const MAX_OPEN_MBTILES = 32;

export interface ReaderProcessEvents {
  message(message: ReaderMessage): void;
  /** Once, however the process ended (killed, crashed, never started); `how` is for the log. */
  exit(how: string): void;
}

/** A running reader process, as the pool (mbtiles-pool.ts) drives it. */
export interface ReaderProcess {
  readonly pid: number | undefined;
  send(call: MbtilesCall): void;
  /** Ends it at once, even inside a SQLite query (SIGKILL where there are signals). */
  kill(): void;
}

/** Starts a process running mbtiles-child.ts; throws when none can start here. */
export type ReaderProcessStarter = (events: ReaderProcessEvents) => ReaderProcess;
