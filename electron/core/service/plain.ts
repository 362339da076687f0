// What HTTP GET and HTTP POST share: the answer is a bare XML document, <string> for SitesAPI and
// EusReprocessAPI, <ArrayOfRendering> for the list, in the service namespace; failures are HTTP 500
// text/plain exception messages. Also the strict percent-encoding both use for parameters.
import type { Connection, Operation } from './types';
import type { WireParams } from './operations';
import { isSuccess, parseBody, readFailure, serviceUrl, wrongShape, type Answer, type ReadResult } from './codec';
import { formEncodeParams } from '../../shared/aspnet';
import { fastReadPlain } from './fast-read';

export function operationUrl(connection: Connection, operation: Operation): string {
  return `${serviceUrl(connection)}/${operation}`;
}

/**
 * application/x-www-form-urlencoded / query encoding of every parameter (shared/aspnet.ts, where the
 * query length ASP.NET limits is measured with the same encoding). encodeURIComponent plus the five
 * characters it leaves alone that some servers treat specially (! ' ( ) *); space is %20, which every
 * decoder reads as a space (a "+" would not survive a strict query parser).
 */
export function encodeParams(params: WireParams): string {
  return formEncodeParams(params);
}

export function readPlain(operation: Operation, answer: Answer, connection: Connection): ReadResult {
  if (!isSuccess(answer.status)) return { ok: false, error: readFailure(answer) };
  // The exact success shapes first (fast-read.ts); anything else is read in full.
  return fastReadPlain(operation, answer, connection) ?? readPlainFully(operation, answer, connection);
}

/** A 2xx answer read with the full XML parser: the reference the fast path is held to. */
export function readPlainFully(operation: Operation, answer: Answer, connection: Connection): ReadResult {
  const parsed = parseBody(answer, operation);
  if (!parsed.ok) return parsed;
  const root = parsed.root;
  const expected = operation === 'GetRenderingQualityList' ? 'ArrayOfRendering' : 'string';
  if (root.local !== expected) {
    return wrongShape(answer, `the root element is <${root.qname}>, expected <${expected}>`);
  }
  if (root.ns !== connection.namespace) {
    return wrongShape(answer, `<${expected}> is in namespace "${root.ns}" but the profile's namespace is "${connection.namespace}"`);
  }
  return { ok: true, element: root };
}
