// The KML inside a KMZ, unpacked as the archive streams from disk (fflate's Unzip): one pass lists
// the entries without unpacking any, to choose the one to read as the whole-file reader chooses it
// (doc.kml, else the first .kml); each later pass unpacks that entry alone, a few kilobytes of the
// archive at a time, so what is held is one step's output and a zip bomb stops at
// MAX_KMZ_KML_BYTES while it inflates. Every other entry is passed over, never inflated. The one KMZ
// reader: a file on disk in the preview's worker (core/bulk/kml-file.ts) and bytes in memory
// (geo.ts, the page's and the tests' path) alike. Pure JavaScript, so browser-safe.
import { Unzip, UnzipInflate, type AsyncFlateStreamHandler, type UnzipDecoderConstructor, type UnzipFile } from 'fflate';
import { MAX_KMZ_KML_BYTES } from './limits';

/** Why the entry cannot be read: the sentence for the preview. */
export class KmzProblem extends Error {}

export interface KmzChoice {
  name: string;
  /** Which of the entries so named (0 first): the whole-file reader kept the last doc.kml. */
  occurrence: number;
  /** How many .kml entries the archive holds. */
  kmlFiles: number;
}

export type KmzListing = { ok: true; choice: KmzChoice } | { ok: false; problem: string };

/** What a preview says of the entry chosen: when it is not doc.kml, and when others were passed over. */
export function kmzChoiceNotes({ name, kmlFiles }: KmzChoice): string[] {
  const notes: string[] = [];
  if (name.toLowerCase() !== 'doc.kml') notes.push(`The KMZ has no doc.kml; read ${name} instead.`);
  if (kmlFiles > 1) notes.push(`The KMZ holds ${kmlFiles} KML files; only ${name} was read.`);
  return notes;
}

/** Archive bytes handed to the unzipper at a time: deflate expands at most ~1,032×, so one step inflates at most ~4 MB. */
const STEP_BYTES = 4096;

const tooLarge = (name: string) =>
  `${name} in the KMZ unpacks to more than ${MAX_KMZ_KML_BYTES / (1024 * 1024)} MB, which no site list needs; it was not read (the file may be damaged or made to harm).`;
const unreadable = (error: unknown) => `The KMZ is not a readable zip archive (${error instanceof Error ? error.message : String(error)}).`;

const isKml = (file: UnzipFile) => !file.name.endsWith('/') && /\.kml$/i.test(file.name);

/**
 * An unzipper whose deflated entries are inflated only while `state.inflate` was set when they
 * started; the others are started too (fflate keeps an entry's bytes until it is started) and their
 * bytes dropped as they pass.
 */
function unzipper(onFile: (file: UnzipFile, state: { inflate: boolean }) => void): Unzip {
  const state = { inflate: false };
  const Selective: UnzipDecoderConstructor = class {
    static compression = 8;
    ondata: AsyncFlateStreamHandler = () => {};
    private readonly inner = state.inflate ? new UnzipInflate() : null;

    constructor() {
      if (this.inner) this.inner.ondata = (error, data, final) => this.ondata(error, data, final);
    }

    push(chunk: Uint8Array, final: boolean): void {
      this.inner?.push(chunk, final);
    }
  };
  const unzip = new Unzip((file) => {
    state.inflate = false;
    file.ondata = () => {};
    onFile(file, state);
    file.start();
  });
  unzip.register(Selective);
  return unzip;
}

/** The entries' names, read from their headers as the archive passes; nothing is unpacked. */
export async function listKmz(archive: AsyncIterable<Uint8Array>): Promise<KmzListing> {
  const entries: Array<{ name: string; stated: number | undefined }> = [];
  const unzip = unzipper((file) => {
    if (isKml(file)) entries.push({ name: file.name, stated: file.originalSize });
  });
  try {
    let last: Uint8Array | null = null;
    for await (const piece of archive) {
      if (last) unzip.push(last, false);
      last = piece;
    }
    unzip.push(last ?? new Uint8Array(0), true);
  } catch (error) {
    return { ok: false, problem: unreadable(error) };
  }
  if (entries.length === 0) return { ok: false, problem: 'The KMZ holds no .kml file.' };
  // doc.kml in any case (the first spelling met, its last entry), else the first .kml.
  const doc = entries.find((entry) => entry.name.toLowerCase() === 'doc.kml');
  const name = (doc ?? entries[0]!).name;
  const named = entries.filter((entry) => entry.name === name);
  const occurrence = doc ? named.length - 1 : 0;
  // The size the archive states is believed when it is too large, never when it is small.
  const stated = named[occurrence]!.stated;
  if (stated !== undefined && stated > MAX_KMZ_KML_BYTES) return { ok: false, problem: tooLarge(name) };
  return { ok: true, choice: { name, occurrence, kmlFiles: entries.length } };
}

/** The chosen entry's bytes as they are inflated. Throws KmzProblem with the sentence when it cannot be read or passes the bound. */
export async function* kmzEntryBytes(archive: AsyncIterable<Uint8Array>, choice: KmzChoice): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let seen = 0;
  let size = 0;
  let done = false;
  let problem: string | null = null;
  const unzip = unzipper((file, state) => {
    if (file.name !== choice.name || seen++ !== choice.occurrence) return;
    state.inflate = true;
    file.ondata = (error, chunk, final) => {
      if (problem !== null || done) return;
      if (error) {
        problem = `${file.name} in the KMZ cannot be unpacked (${error.message}).`;
        return;
      }
      size += chunk.length;
      if (size > MAX_KMZ_KML_BYTES) {
        problem = tooLarge(file.name);
        return;
      }
      if (chunk.length > 0) out.push(chunk);
      if (final) done = true;
    };
  });
  const drain = function* (): Generator<Uint8Array> {
    if (problem !== null) throw new KmzProblem(problem);
    while (out.length > 0) yield out.shift()!;
  };
  for await (const piece of archive) {
    for (let at = 0; at < piece.length; at += STEP_BYTES) {
      try {
        unzip.push(piece.subarray(at, at + STEP_BYTES), false);
      } catch (error) {
        throw new KmzProblem(problem ?? unreadable(error));
      }
      yield* drain();
      if (done) return;
    }
  }
  try {
    unzip.push(new Uint8Array(0), true);
  } catch (error) {
    throw new KmzProblem(problem ?? unreadable(error));
  }
  yield* drain();
  if (!done) throw new KmzProblem(`${choice.name} in the KMZ is cut short: the archive ends inside it.`);
}
