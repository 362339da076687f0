// The HTTP GET and HTTP POST bindings: parameters from the query string or a form-encoded body,
// read strictly (UTF-8 only, each name once, names case-sensitive), every parameter of the
// operation required like ASMX's ValueCollectionParameterReader; results as bare XML documents and
// failures as 500 text/plain exception texts. Unknown extra parameters are ignored, as ASMX does.
import { framework, unreadable, type ServiceError } from '../errors';
import { OPERATION_PARAMS, type OperationName, type OperationResult } from '../operations';
import { ok, plainError, plainResultDocument, TEXT_XML, type Reply } from './reply';

const READER_AT = 'System.Web.Services.Protocols.ValueCollectionParameterReader.Read(NameValueCollection collection)';

/** Decodes application/x-www-form-urlencoded text (query or body) into name → values, strictly. */
export function parseUrlEncoded(raw: string, where: 'query string' | 'form body'): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  if (raw === '') return fields;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq < 0 ? part : part.slice(0, eq), where);
    const value = decodeComponent(eq < 0 ? '' : part.slice(eq + 1), where, name);
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
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

/** The operation's parameters from the decoded fields: each present exactly once. */
export function readHttpParams(operation: OperationName, fields: Map<string, string[]>): Record<string, string> {
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
