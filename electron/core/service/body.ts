// Reading an answer's body: bounded (past the limit the rest is not read), and decoded in the
// charset its content type names, strictly when the caller must know the bytes were valid.
import { firstInvalidUtf8Offset } from '../../shared/bulk/decode';
import type { TransportResponse } from './types';

/**
 * Reads the body up to `limit` bytes, keeping what arrived when the stream fails. Past the limit
 * the rest is not read: leaving the loop cancels a web stream and destroys a Node stream.
 */
export async function readBody(response: TransportResponse, signal: AbortSignal, limit: number): Promise<{ bytes: Uint8Array; failure?: unknown; tooLarge: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), tooLarge: false };
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
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return failure === undefined ? { bytes, tooLarge } : { bytes, failure, tooLarge };
}

/**
 * The body as text in the charset its content type names (UTF-8 by default; the decoder drops a
 * leading BOM). strict: bytes that are not valid in that charset make `invalid` say so (the text is
 * then decoded leniently, for the error's excerpt).
 */
export function decodeBody(bytes: Uint8Array, contentType: string, strict: boolean): { text: string; invalid?: string } {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  let label = 'utf-8';
  try {
    label = new TextDecoder(charset ?? 'utf-8').encoding;
  } catch {
    label = 'utf-8';
  }
  if (!strict) return { text: new TextDecoder(label).decode(bytes) };
  try {
    return { text: new TextDecoder(label, { fatal: true }).decode(bytes) };
  } catch {
    const where = label === 'utf-8' ? ` (the first bad byte is at offset ${firstInvalidUtf8Offset(bytes)})` : '';
    return { text: new TextDecoder(label).decode(bytes), invalid: `the answer is not valid ${label.toUpperCase()}${where}` };
  }
}
