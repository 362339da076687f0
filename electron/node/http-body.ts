// Reads an HTTP request body into memory, up to a limit (the sandbox, the browser host). A body
// declared or found to be over the limit is refused without keeping another byte of it: the
// caller answers (413) from a hook, and the connection closes once that answer is out.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const TOO_LARGE = 'too-large';

/** After a refusal, what the client still sends is read and dropped for at most this long, and this much. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * Closes a refused request's connection once its answer is out, as servers do (a lingering close): our
 * end of the connection after the answer, then what the client is still sending read and dropped for
 * a short while, then the socket destroyed. Destroyed at once (Node's `Connection: close`), unread
 * bytes make the OS reset the connection, and a client still sending its body can lose the answer it
 * had not read yet: a browser then says the connection was reset, not that the file is too large (seen:
 * the upload test's 413 never arrived under load). So the answer must not say `Connection: close`
 * (Node would destroy the socket straight after it): our end of the connection follows it instead.
 */
export function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  const linger = (): void => {
    let dropped = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) socket.destroy();
    });
    request.resume();
    socket.end();
  };
  if (response.writableFinished) linger();
  else response.once('finish', linger);
}

export interface BodyLimitHooks {
  /** Called once when the body is over the limit, after reading has stopped: answer 413 here. */
  onTooLarge?: () => void;
  /**
   * This request's answer. With it, the connection is closed once the refusal is out (closeAfterAnswer:
   * the rest of the body is never kept); without it, the caller does so.
   */
  response?: ServerResponse;
}

/** The whole body, or TOO_LARGE when it is larger than `limit` bytes. */
export function readBody(request: IncomingMessage, limit: number, hooks: BodyLimitHooks = {}): Promise<Buffer | typeof TOO_LARGE> {
  const refuse = (): typeof TOO_LARGE => {
    request.pause();
    if (hooks.response) closeAfterAnswer(request, hooks.response);
    hooks.onTooLarge?.();
    return TOO_LARGE;
  };

  const declared = Number(request.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(refuse());

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        resolve(refuse());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    // A client that goes away mid-body: no 'end' will come.
    const onClose = (): void => {
      stop();
      reject(new Error('The connection closed before the request body was complete.'));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}
