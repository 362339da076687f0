// The HTTP GET and HTTP POST bindings: parameters from the query string or a form-encoded body,
// read strictly (UTF-8 only, each name once, names case-sensitive) after ASP.NET's request
// validation, every parameter of the operation required like ASMX's ValueCollectionParameterReader;
// results as bare XML documents and failures as 500 text/plain exception texts. Unknown extra
// parameters are ignored, as ASMX does (but request validation looks at them too).
import { framework, unreadable, type ServiceError } from '../errors';
import { OPERATION_PARAMS, type OperationName, type OperationResult } from '../operations';
import { ok, plainError, plainResultDocument, TEXT_XML, type Reply } from './reply';
import { validateRequestValues, type FormPart } from './request-validation';

const READER_AT = 'System.Web.Services.Protocols.ValueCollectionParameterReader.Read(NameValueCollection collection)';
const FORM_READER_AT = 'System.Web.Services.Protocols.HtmlFormParameterReader.Read(HttpRequest request)';
const READ_PARAMETERS_AT = 'System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()';

/** An HTTP GET or POST call as it arrived: the query string, or the form body and its content type. */
export type HttpCallRequest = { binding: 'http-get'; query: string } | { binding: 'http-post'; contentType: string | undefined; body: Buffer };

/** The operation's parameters from an HTTP GET/POST request; throws the ServiceError ASMX (or ASP.NET before it) would. */
export function readHttpCall(operation: OperationName, request: HttpCallRequest, requestValidation: boolean): Record<string, string> {
  let parts: FormPart[];
  if (request.binding === 'http-get') {
    parts = parseUrlEncoded(request.query, 'query string');
  } else {
    if (parseContentType(request.contentType).type !== 'application/x-www-form-urlencoded') {
      throw framework(`Request format is invalid: ${request.contentType ?? ''}.`, READ_PARAMETERS_AT);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(request.body);
    } catch {
      throw unreadable('The form body is not valid UTF-8; percent-encode text as UTF-8.', FORM_READER_AT);
    }
    parts = parseUrlEncoded(text, 'form body');
  }
  if (requestValidation) validateRequestValues(parts, request.binding === 'http-get' ? 'Request.QueryString' : 'Request.Form');
  return readHttpParams(operation, parts);
}

/** Decodes application/x-www-form-urlencoded text (query or body) into its parts, strictly. */
export function parseUrlEncoded(raw: string, where: 'query string' | 'form body'): FormPart[] {
  const parts: FormPart[] = [];
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) {
      parts.push({ name: null, value: decodeComponent(part, where) });
      continue;
    }
    const name = decodeComponent(part.slice(0, eq), where);
    parts.push({ name, value: decodeComponent(part.slice(eq + 1), where, name) });
  }
  return parts;
}

/** "text/xml; charset=utf-8" → the type in lower case and its parameters (names in lower case, quotes removed). */
export function parseContentType(header: string | undefined): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = (header ?? '').split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    params[name] = value;
  }
  return { type: type.trim().toLowerCase(), params };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeComponent(encoded: string, where: string, name?: string): string {
  const plus = encoded.replace(/\+/g, ' ');
  if (!plus.includes('%')) return plus;
  const chunks: Buffer[] = [];
  let run = '';
  for (let i = 0; i < plus.length; i++) {
    if (plus[i] !== '%') {
      run += plus[i];
      continue;
    }
    const hex = plus.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
      throw unreadable(`The ${where} has a malformed percent-escape '%${hex}'${name === undefined ? '' : ` in parameter ${name}`}; write % as %25.`, READER_AT);
    }
    // Characters sent unescaped count as their UTF-8 bytes, escapes as the byte they name.
    chunks.push(Buffer.from(run, 'utf8'), Buffer.from([parseInt(hex, 16)]));
    run = '';
    i += 2;
  }
  chunks.push(Buffer.from(run, 'utf8'));
  const bytes = Buffer.concat(chunks);
  try {
    return utf8.decode(bytes);
  } catch {
    throw unreadable(`The ${where} is not valid UTF-8${name === undefined ? '' : ` in parameter ${name}`}; percent-encode text as UTF-8.`, READER_AT);
  }
}

/** The operation's parameters from the decoded parts: each present exactly once (a bare "name" counts as name=""). */
function readHttpParams(operation: OperationName, parts: readonly FormPart[]): Record<string, string> {
  const fields = new Map<string, string[]>();
  for (const { name, value } of parts) {
    const [key, text] = name === null ? [value, ''] : [name, value];
    const values = fields.get(key);
    if (values) values.push(text);
    else fields.set(key, [text]);
  }
  const params: Record<string, string> = {};
  for (const name of OPERATION_PARAMS[operation]) {
    const values = fields.get(name);
    if (!values) throw framework(`Missing parameter: ${name}.`, READER_AT);
    if (values.length > 1) throw unreadable(`Parameter ${name} was sent ${values.length} times; send each parameter once.`, READER_AT);
    params[name] = values[0]!;
  }
  return params;
}

export function httpResultReply(namespace: string, result: OperationResult): Reply {
  return ok(TEXT_XML, plainResultDocument(namespace, result));
}

export function httpErrorReply(error: ServiceError): Reply {
  return plainError(error);
}
