// What the client checks before anything leaves: the connection (a web address, a binding, a
// namespace XML can carry), the credentials, and for a raw call its parameter names and values.
// Every refusal is an input issue with a sentence; nothing here touches the network.
import { findXmlForbidden } from '../../shared/validation/common';
import { serviceUrl } from './codec';
import { requestParameters, type WireParams } from './operations';
import { BINDINGS, type Connection, type Credentials, type InputIssue, type Operation } from './types';

export function rawParamIssues(operation: Operation, unknown: string[], credentials: string[]): InputIssue[] {
  const valid = requestParameters(operation);
  const issues: InputIssue[] = unknown.map((name) => {
    const near = valid.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    return {
      field: name,
      message:
        `${operation} has no parameter "${name}"` +
        (near ? ` (names are case-sensitive: did you mean "${near}"?)` : '') +
        `; its parameters are ${valid.join(', ')}.`,
    };
  });
  for (const name of credentials) {
    issues.push({ field: name, message: `"${name}" comes from the account and key settings, not from the request parameters.` });
  }
  return issues;
}

export function checkConnection(connection: Connection): InputIssue[] {
  const issues: InputIssue[] = [];
  if (!BINDINGS.includes(connection.binding)) {
    issues.push({ field: 'binding', message: `The binding "${String(connection.binding)}" is not one of ${BINDINGS.join(', ')}.` });
  }
  let url: URL | null = null;
  try {
    url = new URL(serviceUrl(connection));
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    issues.push({ field: 'baseUrl', message: `The base URL "${connection.baseUrl}" is not a web address like https://api.towercoverage.com.` });
  } else if (url.search || url.hash) {
    issues.push({ field: 'baseUrl', message: 'The base URL and service path must not contain "?" or "#".' });
  }
  if (typeof connection.namespace !== 'string' || connection.namespace.trim() === '') {
    issues.push({ field: 'namespace', message: 'The SOAP namespace is empty; the real service uses http://tempuri.org/.' });
  } else if (findXmlForbidden(connection.namespace) || /["<>&\s]/.test(connection.namespace)) {
    issues.push({ field: 'namespace', message: 'The SOAP namespace must be a URI without spaces or quotes, like http://tempuri.org/.' });
  }
  return issues;
}

export function checkCredentials(credentials: Credentials, strict: boolean): InputIssue[] {
  const issues: InputIssue[] = [];
  if (strict && credentials.account.trim() === '') issues.push({ field: 'account', message: 'The profile has no account ID; it is in the API section of the account settings.' });
  if (strict && credentials.key.trim() === '') issues.push({ field: 'key', message: 'The profile has no API key; it is in the API section of the account settings.' });
  if (findXmlForbidden(credentials.account)) issues.push({ field: 'account', message: 'The account ID contains an invisible control character; retype it.' });
  // The key's characters are never quoted back.
  if (findXmlForbidden(credentials.key)) issues.push({ field: 'key', message: 'The API key contains an invisible control character; paste it again.' });
  return issues;
}

/** Values XML 1.0 cannot carry (relevant to callRaw, whose values are not otherwise validated). */
export function unsendable(params: WireParams): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const [name, value] of params) {
    if (name === 'Account' || name === 'key') continue; // checked with the credentials
    const forbidden = findXmlForbidden(value);
    if (forbidden) issues.push({ field: name, message: `${name} contains ${forbidden.description} at position ${forbidden.index + 1}; it cannot be sent.` });
  }
  return issues;
}
