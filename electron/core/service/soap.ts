// What SOAP 1.1 and 1.2 share: the document/literal wrapped envelope (one element named after the
// operation, in the service namespace, one child per parameter in the published order) and reading
// <OpResponse><OpResult> out of the answer by namespace URI. The version modules add headers.
import type { Connection, Operation } from './types';
import type { WireParams } from './operations';
import { isSuccess, parseBody, readFailure, serviceUrl, soapFault, wrongShape, type Answer, type BindingCodec, type ReadResult } from './codec';
import { childOf, escapeXmlAttribute, escapeXmlText } from './xml';
import { fastReadSoap } from './fast-read';

export function envelope(envelopeNs: string, operation: Operation, params: WireParams, connection: Connection): string {
  // Parameter values go in element text only: escaping & < > (and CR) is all XML needs there.
  const fields = params.map(([name, value]) => `      <${name}>${escapeXmlText(value)}</${name}>`).join('\n');
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="${escapeXmlAttribute(envelopeNs)}">\n` +
    '  <soap:Body>\n' +
    `    <${operation} xmlns="${escapeXmlAttribute(connection.namespace)}">\n` +
    (fields ? `${fields}\n` : '') +
    `    </${operation}>\n` +
    '  </soap:Body>\n' +
    '</soap:Envelope>\n'
  );
}

export function readSoap(envelopeNs: string, operation: Operation, answer: Answer, connection: Connection): ReadResult {
  if (!isSuccess(answer.status)) return { ok: false, error: readFailure(answer) };
  // The exact success shapes first (fast-read.ts); anything else is read in full.
  return fastReadSoap(envelopeNs, operation, answer, connection) ?? readSoapFully(envelopeNs, operation, answer, connection);
}

/** A 2xx answer read with the full XML parser: the reference the fast path is held to. */
export function readSoapFully(envelopeNs: string, operation: Operation, answer: Answer, connection: Connection): ReadResult {
  const parsed = parseBody(answer, operation);
  if (!parsed.ok) return parsed;
  const root = parsed.root;
  // Some stacks answer a fault with 200; a fault is a fault whatever the status.
  const fault = soapFault(root, answer);
  if (fault) return { ok: false, error: fault };
  if (root.local !== 'Envelope') return wrongShape(answer, `the root element is <${root.qname}>, not a SOAP Envelope`);
  if (root.ns !== envelopeNs) {
    return wrongShape(answer, `the envelope is in namespace "${root.ns}", expected "${envelopeNs}" (SOAP version mismatch)`);
  }
  const body = childOf(root, envelopeNs, 'Body');
  if (!body) return wrongShape(answer, 'the SOAP envelope has no Body');
  const responseName = `${operation}Response`;
  const response = childOf(body, null, responseName);
  if (!response) {
    const found = body.children.map((child) => `<${child.qname}>`).join(', ') || 'nothing';
    return wrongShape(answer, `the SOAP Body holds ${found} instead of <${responseName}>`);
  }
  if (response.ns !== connection.namespace) {
    return wrongShape(answer, `<${responseName}> is in namespace "${response.ns}" but the profile's namespace is "${connection.namespace}"`);
  }
  // The result element inherits the operation namespace; an unqualified one is tolerated.
  const result = response.children.find((child) => child.local === `${operation}Result` && (child.ns === connection.namespace || child.ns === ''));
  // ASMX omits a null string result entirely: that reads as an empty result, not as damage.
  return { ok: true, element: result ?? null };
}

/** A SOAP binding: POST to the service path, the envelope of its version, the version's headers. */
export function soapCodec(binding: 'soap11' | 'soap12', envelopeNs: string, headers: (operation: Operation, connection: Connection) => Record<string, string>): BindingCodec {
  return {
    binding,
    build: (operation, params, connection) => ({ url: serviceUrl(connection), method: 'POST', headers: headers(operation, connection), body: envelope(envelopeNs, operation, params, connection) }),
    read: (operation, answer, connection) => readSoap(envelopeNs, operation, answer, connection),
  };
}
