// Bulk work for the app's hosts (main process / browser host): the files a user handed over, the
// dry runs, and the runs the host follows after the page asked for them. The pipeline is the CLI's:
// bytes → previewImport / readEusCsv + planReprocess → runImport / runReprocess through the core's
// outbox, so the app and `sitewalk import` treat a file the same way. Invariants: a run always
// re-reads the file and re-checks every row here (the page's preview is never trusted); files wait on disk
// (held-files.ts) for this run of the app only, a few at a time, and are read by the preview's worker;
// a run goes on when the page is closed, and a closing host stops following without cancelling
// anything queued.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { MAX_BULK_FILE_BYTES } from '../../shared/contract/inputs';
import type { BulkFileView as BulkFile, BulkRunView as BulkRun, ExportedFile as SavedFile, ImportOptionsInput as ImportChoices, ReprocessFileOptions as ReprocessChoices } from '../../shared/contract/index';
import type { SitewalkCore } from '../sitewalk-core';
import { refuse, type Result } from '../../shared/result';
import { runReprocess, type BulkProgress, type RunResult } from './apply';
import { runImport } from './import-run';
import { coreOutboxPort, exportSitesOf, knownSitesOf } from './core-port';
import type { Delimiter } from '../../shared/bulk/csv';
import { planReprocess, readEusCsv, type EusPlan } from '../../shared/bulk/eus';
import { nearestSiteFinder } from '../sites/nearest';
import { exportSites, type ExportFormat } from '../../shared/bulk/export';
import type { ImportOptions } from '../../shared/bulk/import';
import { previewImportStored } from './preview-off-thread';
import type { StoredPreview } from './preview-store';
import type { ImportPreviewView, PreviewRowsPage, RowFilter } from '../../shared/bulk/preview-page';
import { countStatuses, reportCsv, reportCsvHeader, reportCsvLines } from '../../shared/bulk/report';
import { BODY_TOO_LARGE } from '../../node/body-file';
import { HeldFiles } from './held-files';

export interface BulkSessionOptions {
  /** Files kept at once; the oldest goes first (default 4). */
  maxFiles?: number;
  /** Largest file accepted, in bytes (default 64 MB). */
  maxFileBytes?: number;
  /** Ended runs kept for their reports (default 10). */
  maxEndedRuns?: number;
  /** Least time between two progress events of one run (default 250 ms). */
  progressIntervalMs?: number;
  now?: () => number;
}

const DEFAULTS = { maxFiles: 4, maxFileBytes: MAX_BULK_FILE_BYTES, maxEndedRuns: 10, progressIntervalMs: 250 } as const;

/**
 * How long one of an import's transactions may take in a host: it holds the host's thread while it
 * runs, and the API (getStatus, cancel) answers between two, so each stays well under a second. Each
 * is one event to the page (change-events.ts), whose store applies them at most 5 times a second.
 * Sized to 250 ms, a loaded machine's batch of long rows held getStatus 1.7 s (807 ms at 50 ms); at
 * 50 ms a fresh-clone CI run (four test files at once on 2 cores) saw 1.1 s, and beside five busy
 * loops the 40 MB apply's slowest getStatus went from 334–350 ms to 269–287 ms at 25.
 */
const HOST_BATCH_MS = 25;

const DELIMITERS: Record<NonNullable<ImportChoices['delimiter']>, Delimiter> = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' };

const EXPORT_TYPES: Record<ExportFormat, { extension: string; mimeType: string }> = {
  csv: { extension: 'csv', mimeType: 'text/csv;charset=utf-8' },
  kml: { extension: 'kml', mimeType: 'application/vnd.google-earth.kml+xml' },
  geojson: { extension: 'geojson', mimeType: 'application/geo+json' },
};

interface Held {
  name: string;
  /** The held copy (held-files.ts). */
  path: string;
  /** The last preview of this file, its rows in a store on disk: pages are read from it. */
  preview?: StoredPreview;
}

/** A streamed file that passed the limit: nothing was kept, and this says so. */
export interface TooLarge {
  tooLarge: string;
}

/** How a run ended that queued nothing: no row in its report, every count 0. */
function nothingQueued(outcome: RunResult['outcome'], elapsedMs: number, said: Partial<RunResult> = {}): RunResult {
  return { outcome, blockers: [], rows: [], counts: countStatuses([]), enqueueMs: 0, elapsedMs, ...said };
}

const MISSING_FILE = 'That file is no longer open here (Sitewalk was restarted, or other files were opened since); choose it again.';

interface Tracked {
  run: BulkRun;
  controller: AbortController;
  lastEmit: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/** Strips the rows: events carry counts, getBulkRun carries the rows. */
export function withoutRows(run: BulkRun): BulkRun {
  return { ...run, rows: null };
}

export class BulkSession {
  private readonly options: Required<Omit<BulkSessionOptions, 'now'>> & { now: () => number };
  private readonly files = new Map<string, Held>();
  private readonly runs = new Map<string, Tracked>();
  private readonly detach = new AbortController();
  private readonly held: HeldFiles;

  constructor(
    private readonly core: SitewalkCore,
    private readonly emit: (run: BulkRun) => void,
    options: BulkSessionOptions = {},
  ) {
    this.options = { ...DEFAULTS, now: Date.now, ...options };
    this.held = new HeldFiles(core.dataDir);
  }

  /** The largest file taken, in bytes. */
  get maxFileBytes(): number {
    return this.options.maxFileBytes;
  }

  /** A file whose bytes came in a call: base64 (JSON) or as they are (Electron's IPC). */
  async openFile(name: string, content: string | Uint8Array): Promise<Result<BulkFile>> {
    let bytes: Uint8Array;
    if (typeof content === 'string') {
      const decoded = Buffer.from(content, 'base64');
      // Buffer.from ignores what is not base64; a length that does not add up means a damaged upload.
      if (decoded.length !== Math.floor((content.replace(/=+$/, '').length * 3) / 4)) return refuse('file', 'The file did not arrive whole; choose it again.');
      bytes = decoded;
    } else bytes = content;
    if (bytes.length === 0) return refuse('file', `${name || 'The file'} is empty.`);
    if (bytes.length > this.options.maxFileBytes) return refuse('file', this.tooLargeSentence(name, bytes.length));
    return this.keep(name, await this.held.writeBytes(bytes), bytes.length);
  }

  /**
   * A file streamed as a request body (the browser host's upload): written to disk as it arrives and
   * refused, with nothing kept, once it passes the limit; reading stops there.
   */
  async receiveFile(name: string, body: Readable, declaredBytes: number | null): Promise<Result<BulkFile> | TooLarge> {
    if (declaredBytes !== null && declaredBytes > this.options.maxFileBytes) return { tooLarge: this.tooLargeSentence(name, declaredBytes) };
    const received = await this.held.receive(body, this.options.maxFileBytes);
    if (received === BODY_TOO_LARGE) return { tooLarge: this.tooLargeSentence(name, null) };
    if (received.size === 0) {
      await this.held.remove(received.path);
      return refuse('file', `${name || 'The file'} is empty.`);
    }
    return this.keep(name, received.path, received.size);
  }

  private tooLargeSentence(name: string, size: number | null): string {
    const limit = `${Math.round(this.options.maxFileBytes / 1024 / 1024)} MB`;
    const shown = name.trim() || 'The file';
    return size === null ? `${shown} is larger than ${limit}, the limit; split the file.` : `${shown} is ${Math.round(size / 1024 / 1024)} MB; the limit is ${limit}. Split the file.`;
  }

  private async keep(name: string, path: string, size: number): Promise<Result<BulkFile>> {
    const fileId = randomUUID();
    this.files.set(fileId, { name: name.trim() || 'file', path });
    while (this.files.size > this.options.maxFiles) {
      const oldest = this.files.keys().next().value!;
      const dropped = this.files.get(oldest)!;
      this.files.delete(oldest);
      dropped.preview?.drop();
      await this.held.remove(dropped.path);
    }
    return { ok: true, value: { fileId, name: this.files.get(fileId)!.name, size } };
  }

  private file(fileId: string): Held | null {
    return this.files.get(fileId) ?? null;
  }

  private static missingFile<T>(): Result<T> {
    return refuse('file', MISSING_FILE);
  }

  /** The dry run: its findings, counts and first page; the rows stay here for previewRows. */
  async previewImport(fileId: string, choices: ImportChoices): Promise<Result<ImportPreviewView>> {
    const held = this.file(fileId);
    if (!held) return BulkSession.missingFile();
    const stored = await this.storedPreview(fileId, held, choices);
    if (!stored) return BulkSession.missingFile();
    held.preview?.drop();
    held.preview = stored;
    return { ok: true, value: stored.view() };
  }

  /** The file previewed in the worker; null when newer files pushed it out (and removed it) meanwhile. */
  private async storedPreview(fileId: string, held: Held, choices: ImportChoices, signal?: AbortSignal): Promise<StoredPreview | null> {
    let stored: StoredPreview;
    try {
      stored = await previewImportStored({ path: held.path }, this.importOptions(held, choices), this.held.scratchPath('preview'), signal);
    } catch (error) {
      if (!this.files.has(fileId)) return null;
      throw error;
    }
    if (this.files.has(fileId)) return stored;
    stored.drop();
    return null;
  }

  /** A page of the last preview's rows, as a filter shows them. */
  previewRows(fileId: string, filter: RowFilter, offset: number): Result<PreviewRowsPage> {
    const held = this.file(fileId);
    if (!held) return BulkSession.missingFile();
    if (!held.preview) return refuse('file', 'This file has not been checked yet; check it again.');
    return { ok: true, value: held.preview.page(filter, offset) };
  }

  /** The last dry run's rows as the report CSV (what `sitewalk import --dry-run --report` writes). */
  async dryRunReport(fileId: string): Promise<Result<SavedFile>> {
    const held = this.file(fileId);
    if (!held) return BulkSession.missingFile();
    if (!held.preview) return refuse('file', 'This file has not been checked yet; check it again.');
    const base = held.name.replace(/\.[^.]+$/, '');
    // Built a batch of rows at a time: only the report's own text is whole.
    const parts = [reportCsvHeader({ bom: true })];
    for await (const batch of held.preview.reportBatches()) parts.push(reportCsvLines(batch));
    return { ok: true, value: { fileName: `${base}-dry-run.csv`, mimeType: 'text/csv;charset=utf-8', content: parts.join(''), notes: [] } };
  }

  private importOptions(held: Held, choices: ImportChoices): ImportOptions {
    const options: ImportOptions = { fileName: held.name, known: knownSitesOf(this.core) };
    if (choices.mapping) options.mapping = choices.mapping;
    if (choices.defaults) options.defaults = choices.defaults;
    if (choices.delimiter) options.delimiter = DELIMITERS[choices.delimiter];
    if (choices.format) options.format = choices.format;
    return options;
  }

  async startImport(fileId: string, choices: ImportChoices): Promise<Result<BulkRun>> {
    const held = this.file(fileId);
    if (!held) return BulkSession.missingFile();
    let stored: StoredPreview | null = null;
    // The run starts at once, checking the file again first (the register may have changed): the page follows and can cancel it.
    return this.start(
      'import',
      held.name,
      async (options) => {
        const started = this.options.now();
        try {
          stored = await this.storedPreview(fileId, held, choices, AbortSignal.any([options.signal, options.detach]));
        } catch (error) {
          if (!options.signal.aborted && !options.detach.aborted) throw error;
        }
        // Cancelled, or the host closing (which also lets go of the file), while it checked: nothing queued.
        const elapsed = this.options.now() - started;
        if (options.signal.aborted) return nothingQueued('cancelled', elapsed);
        if (options.detach.aborted) return nothingQueued('stopped', elapsed, { stoppedBecause: 'Sitewalk closed while the file was checked again; nothing was queued.' });
        if (!stored) return nothingQueued('refused', elapsed, { blockers: [MISSING_FILE] });
        const rows = { ...stored.head, batches: (size: number) => stored!.batches(size) };
        return runImport(coreOutboxPort(this.core), rows, { ...options, skipInvalid: choices.skipInvalid === true, batchMs: HOST_BATCH_MS });
      },
      { ended: () => stored?.drop(), checking: true },
    );
  }

  async planReprocess(fileId: string, choices: ReprocessChoices): Promise<Result<EusPlan>> {
    const held = this.file(fileId);
    if (!held) return BulkSession.missingFile();
    return { ok: true, value: await this.plan(held, choices) };
  }

  private async plan(held: Held, choices: ReprocessChoices): Promise<EusPlan> {
    const table = readEusCsv(await readFile(held.path));
    // Asked of the outbox at each preview and again when queueing, so a submission emailed meanwhile
    // is marked (and held back) too.
    const recent = this.core.recentEmails(table.rows.map((row) => row.processId.trim()).filter((id) => id !== ''));
    return planReprocess(table, {
      multiMapId: choices.multiMapId,
      sendEmail: choices.sendEmail,
      recentEmails: Object.fromEntries([...recent].map(([processId, email]) => [processId, email.label])),
      nearestSite: nearestSiteFinder(this.core.sites),
      ...(choices.withinKm !== undefined ? { withinKm: choices.withinKm } : {}),
      ...(choices.filters ? { filters: choices.filters } : {}),
      ...(choices.selectedRows ? { selectedRows: choices.selectedRows } : {}),
      ...(choices.emailAgainRows ? { emailAgain: choices.emailAgainRows } : {}),
    });
  }

  async startReprocess(fileId: string, choices: ReprocessChoices): Promise<Result<BulkRun>> {
    const held = this.file(fileId);
    if (!held) return BulkSession.missingFile();
    const plan = await this.plan(held, choices);
    return this.start('reprocess', held.name, (options) => runReprocess(coreOutboxPort(this.core), plan, { ...options, skipInvalid: choices.skipInvalid === true }));
  }

  /**
   * Starts a run and answers once its batch is queued (or refused), so the page learns at once
   * whether anything was queued; the run is then followed here and reported through events. One
   * that first checks its file (`checking`, until its first progress) answers at once, to be followed.
   */
  private start(
    kind: BulkRun['kind'],
    fileName: string,
    execute: (options: { signal: AbortSignal; detach: AbortSignal; onProgress: (progress: BulkProgress) => void }) => Promise<RunResult>,
    { ended = () => undefined, checking = false }: { ended?: () => void; checking?: boolean } = {},
  ): Promise<Result<BulkRun>> {
    const run: BulkRun = { id: randomUUID(), kind, fileName, startedAt: new Date(this.options.now()).toISOString(), state: 'running', checking, progress: null, result: null, rows: null };
    const tracked: Tracked = { run, controller: new AbortController(), lastEmit: 0, timer: null };
    this.runs.set(run.id, tracked);
    return new Promise((resolve) => {
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        resolve({ ok: true, value: withoutRows(run) });
      };
      if (checking) answer();
      execute({
        signal: tracked.controller.signal,
        detach: this.detach.signal,
        onProgress: (progress) => {
          run.progress = progress;
          run.checking = false;
          answer();
          this.emitThrottled(tracked);
        },
      })
        .finally(ended)
        .then(
          (result) => {
            const { rows, ...rest } = result;
            run.result = rest;
            run.rows = rows;
            this.end(tracked);
            answer();
          },
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            const { rows, ...result } = nothingQueued('stopped', 0, { stoppedBecause: `The run failed: ${message}` });
            run.result = result;
            run.rows = rows;
            this.end(tracked);
            answer();
          },
        );
    });
  }

  private end(tracked: Tracked): void {
    tracked.run.state = 'ended';
    tracked.run.checking = false;
    if (tracked.timer) clearTimeout(tracked.timer);
    tracked.timer = null;
    this.emit(withoutRows(tracked.run));
    const ended = [...this.runs.values()].filter((t) => t.run.state === 'ended');
    for (const old of ended.slice(0, Math.max(0, ended.length - this.options.maxEndedRuns))) this.runs.delete(old.run.id);
  }

  private emitThrottled(tracked: Tracked): void {
    if (tracked.timer || tracked.run.state === 'ended') return;
    const wait = tracked.lastEmit + this.options.progressIntervalMs - this.options.now();
    const send = () => {
      tracked.timer = null;
      tracked.lastEmit = this.options.now();
      if (tracked.run.state === 'running') this.emit(withoutRows(tracked.run));
    };
    if (wait <= 0) send();
    else tracked.timer = setTimeout(send, wait);
  }

  run(runId: string): BulkRun | null {
    const tracked = this.runs.get(runId);
    return tracked ? { ...tracked.run } : null;
  }

  cancel(runId: string): Result<BulkRun> {
    const tracked = this.runs.get(runId);
    if (!tracked) return refuse('run', 'There is no such run (it ended long ago, or Sitewalk was restarted).');
    if (tracked.run.state === 'running') tracked.controller.abort();
    return { ok: true, value: withoutRows(tracked.run) };
  }

  report(runId: string): Result<SavedFile> {
    const run = this.runs.get(runId)?.run;
    if (!run) return refuse('run', 'There is no such run (it ended long ago, or Sitewalk was restarted).');
    if (run.state !== 'ended' || !run.rows) return refuse('run', 'The report is ready once the run has ended.');
    const base = run.fileName.replace(/\.[^.]+$/, '');
    return { ok: true, value: { fileName: `${base}-report.csv`, mimeType: 'text/csv;charset=utf-8', content: reportCsv(run.rows, { bom: true }), notes: [] } };
  }

  /** Every site of the active profile, or only those of `localIds` (the sites the page shows). */
  export(format: ExportFormat, localIds?: readonly string[]): SavedFile {
    const result = exportSites(exportSitesOf(this.core, localIds), format, { bom: true });
    const notes: string[] = result.omitted.map((omitted) => `Left out ${omitted.name || omitted.siteId || 'a site'}: ${omitted.reason}`);
    if (result.withoutId > 0) {
      notes.push(`${result.withoutId} site${result.withoutId === 1 ? ' has' : 's have'} no service ID yet (not synced): importing this file again would create ${result.withoutId === 1 ? 'it' : 'them'} again.`);
    }
    const { extension, mimeType } = EXPORT_TYPES[format];
    const day = new Date(this.options.now()).toISOString().slice(0, 10);
    return { fileName: `sitewalk-sites-${day}.${extension}`, mimeType, content: result.text, notes: [`${result.count} site${result.count === 1 ? '' : 's'} written.`, ...notes] };
  }

  /** The host is closing: stop following runs (nothing queued is cancelled) and remove the files. */
  close(): void {
    this.detach.abort();
    for (const tracked of this.runs.values()) if (tracked.timer) clearTimeout(tracked.timer);
    for (const held of this.files.values()) {
      held.preview?.drop();
      this.held.removeNow(held.path);
    }
    this.files.clear();
  }
}
