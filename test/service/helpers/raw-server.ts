// A tiny loopback HTTP server for the wire-layer tests: it records each request exactly as it
// arrived (method, path, header names and values, body bytes) and answers with raw bytes, so tests
// can send what no well-behaved server would (BOMs, cut bodies, proxy pages) and see what the
// client really put on the wire. Port 0, 127.0.0.1 only; close() ends every socket.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

export interface CapturedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Header values by lower-case name. */
  headers: Record<string, string>;
  /** Header names as the client wrote them, in order. */
  headerNames: string[];
  body: Buffer;
}

export type RawReply =
  /** Bytes written to the socket as they are; with cutAfter, only that many and then a hard close. */
  | { bytes: Buffer; cutAfter?: number }
  /** Close the connection without answering, after the request was read. */
  | { drop: true }
  /** Never answer. */
  | { hang: true };

export interface RawServer {
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

export async function startRawServer(respond: (request: CapturedRequest) => RawReply | Promise<RawReply>): Promise<RawServer> {
  const requests: CapturedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headerNames: string[] = [];
      const headers: Record<string, string> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        headerNames.push(req.rawHeaders[i]!);
        headers[req.rawHeaders[i]!.toLowerCase()] = req.rawHeaders[i + 1]!;
      }
      const captured: CapturedRequest = { method: req.method ?? '', url: req.url ?? '', headers, headerNames, body: Buffer.concat(chunks) };
      requests.push(captured);
      void Promise.resolve(respond(captured)).then((reply) => {
        const socket = res.socket;
        if (!socket) return;
        if ('hang' in reply) return;
        if ('drop' in reply) {
          socket.destroy();
          return;
        }
        // Bypass the response object: the reply is already a complete HTTP message.
        if (reply.cutAfter !== undefined) {
          socket.write(reply.bytes.subarray(0, reply.cutAfter), () => socket.destroy());
        } else {
          socket.end(reply.bytes);
        }
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * One raw server for the tests of a file: started before the first (answering each request with what
 * `respond` gives) and closed after the last. `started` is handed the running server.
 */
export function rawServerPerFile(respond: (request: CapturedRequest) => RawReply | Promise<RawReply>, started: (server: RawServer) => void): void {
  let server: RawServer | undefined;
  beforeAll(async () => {
    server = await startRawServer(respond);
    started(server);
  });
  afterAll(async () => {
    await server?.close();
  });
}

const FIXTURES = fileURLToPath(new URL('../../fixtures/responses/', import.meta.url));

/**
 * A recorded response (test/fixtures/responses/<name>.http) as raw bytes: header lines with CRLF,
 * the body byte for byte, Content-Length computed unless given, X-Fixture-Cut honoured.
 */
export function fixtureReply(name: string): RawReply {
  const file = readFileSync(`${FIXTURES}${name}.http`);
  const split = file.indexOf('\n\n');
  const head = file.subarray(0, split).toString('utf8').split('\n');
  const body = file.subarray(split + 2);
  let cut: number | undefined;
  const lines: string[] = [];
  for (const line of head) {
    const cutMatch = /^X-Fixture-Cut:\s*(\d+)$/i.exec(line);
    if (cutMatch) cut = Number(cutMatch[1]);
    else lines.push(line);
  }
  if (!lines.some((line) => /^content-length:/i.test(line))) lines.push(`Content-Length: ${body.length}`);
  if (!lines.some((line) => /^connection:/i.test(line))) lines.push('Connection: close');
  const headBytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  const bytes = Buffer.concat([headBytes, body]);
  return cut === undefined ? { bytes } : { bytes, cutAfter: headBytes.length + cut };
}

/** A well-formed reply built in the test (status, headers, body). */
export function reply(status: number, contentType: string, body: string, extraHeaders: Record<string, string> = {}): RawReply {
  const bytes = Buffer.from(body, 'utf8');
  const lines = [`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Status'}`, `Content-Type: ${contentType}`, `Content-Length: ${bytes.length}`, 'Connection: close'];
  for (const [name, value] of Object.entries(extraHeaders)) lines.push(`${name}: ${value}`);
  return { bytes: Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), bytes]) };
}
