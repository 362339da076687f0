// What every handler produces: a status, headers and a body, written by the server in one piece
// with a Content-Length (no chunking), like IIS does for ASMX answers. Also the ASMX-style shapes
// shared by the bindings: the XML declaration, result documents and text/plain exception bodies.
import type { ServerResponse } from 'node:http';
import type { ServiceError } from '../errors';
import type { OperationResult } from '../operations';
import { escapeText } from '../xml';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD = 'http://www.w3.org/2001/XMLSchema';

export const TEXT_XML = 'text/xml; charset=utf-8';
export const SOAP12_XML = 'application/soap+xml; charset=utf-8';
export const TEXT_PLAIN = 'text/plain; charset=utf-8';
export const TEXT_HTML = 'text/html; charset=utf-8';

/** Writes a reply in one piece; a response already answered or gone is left alone. HEAD gets the headers only. */
export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** ASMX marks successful answers private and immediately stale; errors just private. */
export function ok(contentType: string, body: string): Reply {
  return { status: 200, headers: { 'Content-Type': contentType, 'Cache-Control': 'private, max-age=0' }, body };
}

export function serverError(contentType: string, body: string): Reply {
  return { status: 500, headers: { 'Content-Type': contentType, 'Cache-Control': 'private' }, body };
}

/** HTTP GET/POST failure: 500 text/plain with ".NET type: message" on the first line. */
export function plainError(error: ServiceError): Reply {
  return serverError(TEXT_PLAIN, error.plainText);
}

/**
 * A string or ArrayOfRendering document as ASMX's XmlSerializer writes it for HTTP GET/POST:
 * indented, with the server's line ends (CRLF on Windows, where IIS runs).
 */
export function plainResultDocument(namespace: string, result: OperationResult): string {
  const ns = escapeText(namespace).replace(/"/g, '&quot;');
  if (result.kind === 'string') {
    return result.text === ''
      ? `${XML_DECLARATION}\r\n<string xmlns="${ns}" />`
      : `${XML_DECLARATION}\r\n<string xmlns="${ns}">${escapeText(result.text)}</string>`;
  }
  const open = `<ArrayOfRendering xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns="${ns}"`;
  if (result.list.length === 0) return `${XML_DECLARATION}\r\n${open} />`;
  const items = result.list.map((entry) => renderingXml(entry, '  ', '\r\n')).join('\r\n');
  return `${XML_DECLARATION}\r\n${open}>\r\n${items}\r\n</ArrayOfRendering>`;
}

/** One <Rendering>; a null string field is left out, an empty one is an empty element. */
export function renderingXml(entry: { id: number; name: string | null; error: string | null }, indent: string, newline: string): string {
  const inner = indent === '' ? '' : indent + indent;
  const field = (name: string, value: string | null): string =>
    value === null ? '' : `${newline}${inner}${value === '' ? `<${name} />` : `<${name}>${escapeText(value)}</${name}>`}`;
  return (
    `${indent}<Rendering>` +
    `${newline}${inner}<RenderingQualityid>${entry.id}</RenderingQualityid>` +
    field('RenderingQualityname', entry.name) +
    field('Error', entry.error) +
    `${newline}${indent}</Rendering>`
  );
}
