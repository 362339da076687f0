// Reading an answer's body: bounded (past the limit the rest is not read), and decoded in the
// charset its content type names, strictly when the caller must know the bytes were valid.
import { firstInvalidUtf8Offset } from '../../shared/bulk/decode';
import type { TransportResponse } from './types';

/**
 * Reads the body up to `limit` bytes, keeping what arrived when the stream fails. Past the limit
 * the rest is not read: leaving the loop cancels a web stream and destroys a Node stream.
 */
export async function readBody(response: TransportResponse, signal: StopSignal, limit: number): Promise<ReadBody> {
  if (!response.body) return { bytes: new Uint8Array(0), tooLarge: false };
  if (isLiveNodeStream(response.body)) return readNodeStream(response.body, signal, limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let failure: unknown;
  let tooLarge = false;
  // Web streams (fetch) and Node streams (undici's request API) are both async iterables of bytes.
  const stream = response.body as AsyncIterable<Uint8Array>;
  try {
    for await (const value of stream) {
      if (signal.aborted) throw signal.reason;
      if (size + value.byteLength > limit) {
        tooLarge = true;
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        break;
      }
      size += value.byteLength;
      chunks.push(value);
    }
  } catch (error) {
    failure = error ?? new Error('the body stream failed');
  }
  return assemble(chunks, size, failure, tooLarge);
}

type StopSignal = { readonly aborted: boolean; readonly reason: unknown };
type ReadBody = { bytes: Uint8Array; failure?: unknown; tooLarge: boolean };

/** The part of a Node Readable (undici's answer body) read here. */
interface NodeStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  destroy(error?: Error): unknown;
  readonly destroyed: boolean;
  readonly readableEnded: boolean;
}

/** A Node stream still to be read: read through its events, cheaper than its async iterator. */
function isLiveNodeStream(body: unknown): body is NodeStream {
  const stream = body as Partial<NodeStream>;
  return typeof stream.on === 'function' && typeof stream.destroy === 'function' && stream.destroyed === false && stream.readableEnded === false;
}

function ignoreError(): void {}

/** The loop above, over a Node stream's events: the same limit, the same failures. */
function readNodeStream(stream: NodeStream, signal: StopSignal, limit: number): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    const finish = (failure: unknown, tooLarge: boolean): void => {
      if (settled) return;
      settled = true;
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
      // A body destroyed here still reports its abort as an 'error' event: with no listener left,
      // Node would throw it as an uncaught exception. The body is no longer ours to read.
      stream.on('error', ignoreError);
      resolve(assemble(chunks, size, failure, tooLarge));
    };
    const onData = (value: Uint8Array): void => {
      if (signal.aborted) {
        stream.destroy();
        return finish(signal.reason ?? new Error('the call was stopped'), false);
      }
      if (size + value.byteLength > limit) {
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        // Past the limit the rest is not read.
        stream.destroy();
        return finish(undefined, true);
      }
      size += value.byteLength;
      chunks.push(value);
    };
    const onEnd = (): void => finish(undefined, false);
    const onError = (error: unknown): void => finish(error ?? new Error('the body stream failed'), false);
    const onClose = (): void => finish(new Error('the body stream closed before its end'), false);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

function assemble(chunks: readonly Uint8Array[], size: number, failure: unknown, tooLarge: boolean): ReadBody {
  const bytes = chunks.length === 1 && chunks[0]!.byteLength === size ? chunks[0]! : new Uint8Array(size);
  if (bytes !== chunks[0]) {
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  return failure === undefined ? { bytes, tooLarge } : { bytes, failure, tooLarge };
}

/**
 * The body as text in the charset its content type names (UTF-8 by default; the decoder drops a
 * leading BOM). strict: bytes that are not valid in that charset make `invalid` say so (the text is
 * then decoded leniently, for the error's excerpt).
 */
export function decodeBody(bytes: Uint8Array, contentType: string, strict: boolean): { text: string; invalid?: string } {
  const charset = contentType === '' ? undefined : CHARSET.exec(contentType)?.[1];
  const label = labelOf(charset);
  if (!strict) return { text: decoderFor(label, false).decode(bytes) };
  try {
    return { text: decoderFor(label, true).decode(bytes) };
  } catch {
    const where = label === 'utf-8' ? ` (the first bad byte is at offset ${firstInvalidUtf8Offset(bytes)})` : '';
    return { text: decoderFor(label, false).decode(bytes), invalid: `the answer is not valid ${label.toUpperCase()}${where}` };
  }
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/** The encoding a charset names (UTF-8 when none, or one TextDecoder does not know). */
function labelOf(charset: string | undefined): string {
  if (charset === undefined) return 'utf-8';
  const known = labels.get(charset);
  if (known !== undefined) return known;
  let label = 'utf-8';
  try {
    label = new TextDecoder(charset).encoding;
  } catch {
    label = 'utf-8';
  }
  if (labels.size < 64) labels.set(charset, label);
  return label;
}

// Decoders are reused: a whole-buffer decode() keeps no state between calls, and making one per
// answer costs more than the decoding of a short answer.
const labels = new Map<string, string>();
const decoders = new Map<string, InstanceType<typeof TextDecoder>>();

function decoderFor(label: string, fatal: boolean): InstanceType<typeof TextDecoder> {
  const key = fatal ? `${label} fatal` : label;
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    decoder = new TextDecoder(label, { fatal });
    decoders.set(key, decoder);
  }
  return decoder;
}
