// Reads an HTTP request body into memory, up to a limit (the sandbox, the browser host). A body
// declared or found to be over the limit is refused without reading another byte of it: the
// caller answers (413) from a hook, and the connection closes once that answer is out.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const TOO_LARGE = 'too-large';

export interface BodyLimitHooks {
  /** Called once when the body is over the limit, after reading has stopped: answer 413 here. */
  onTooLarge?: () => void;
  /**
   * This request's answer. With it, the connection is closed as soon as the refusal is out (the
   * unread rest of the body is never read); without it, the caller answers with `Connection: close`.
   */
  response?: ServerResponse;
}

/** The whole body, or TOO_LARGE when it is larger than `limit` bytes. */
export function readBody(request: IncomingMessage, limit: number, hooks: BodyLimitHooks = {}): Promise<Buffer | typeof TOO_LARGE> {
  const refuse = (): typeof TOO_LARGE => {
    request.pause();
    const response = hooks.response;
    if (response) {
      const close = (): void => request.socket.destroySoon();
      if (response.writableFinished) close();
      else response.once('finish', close);
    }
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
