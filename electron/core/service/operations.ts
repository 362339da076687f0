// The spec's parameter names, in the published order, and the mapping from domain values to them.
// This file and the request builders are the only places where Siteid, Pinstyle, emailsend… are
// written. Every parameter is always sent (blank = empty string): ASMX's HTTP GET/POST bindings
// answer a missing one with HTTP 500 "Missing parameter: <name>.".
import { formatCoordinate } from '../../shared/validation/common';
import type { Credentials, EusReprocess, Operation, SiteEdit } from './types';

/** [name, value] pairs in the order they go on the wire. */
export type WireParams = ReadonlyArray<readonly [string, string]>;

export const PARAMETER_ORDER: Readonly<Record<Operation, readonly string[]>> = {
  SitesAPI: ['Account', 'Sitename', 'Siteid', 'height', 'Latitude', 'Longitude', 'Description', 'Group', 'Pinstyle', 'key'],
  GetRenderingQualityList: ['Account', 'key'],
  EusReprocessAPI: ['processid', 'Account', 'multicoverageid', 'emailsend', 'key'],
};

/** Each parameter's domain name, for messages and field issues (a refusal names the parameter as sent). */
export const DOMAIN_FIELDS: Readonly<Record<string, string>> = {
  Account: 'account',
  key: 'key',
  Sitename: 'name',
  Siteid: 'siteId',
  height: 'height',
  Latitude: 'latitude',
  Longitude: 'longitude',
  Description: 'description',
  Group: 'group',
  Pinstyle: 'pinStyle',
  processid: 'processId',
  multicoverageid: 'multiMapId',
  emailsend: 'sendEmail',
};

/** The domain field of a parameter named as sent; ASP.NET compares names without case. */
export function domainFieldOf(parameter: string): string | null {
  const exact = DOMAIN_FIELDS[parameter];
  if (exact) return exact;
  const lower = parameter.toLowerCase();
  const found = Object.keys(DOMAIN_FIELDS).find((name) => name.toLowerCase() === lower);
  return found ? DOMAIN_FIELDS[found]! : null;
}

/** Parameters that come from the profile's credentials rather than from the request. */
export const CREDENTIAL_PARAMETERS: readonly string[] = ['Account', 'key'];

function ordered(operation: Operation, values: Record<string, string | undefined>): WireParams {
  return PARAMETER_ORDER[operation].map((name) => [name, values[name] ?? ''] as const);
}

export function siteParams(edit: SiteEdit, credentials: Credentials): WireParams {
  return ordered('SitesAPI', {
    Account: credentials.account,
    Sitename: edit.name,
    Siteid: edit.siteId,
    height: String(edit.height),
    Latitude: edit.latitude === undefined ? undefined : formatCoordinate(edit.latitude),
    Longitude: edit.longitude === undefined ? undefined : formatCoordinate(edit.longitude),
    Description: edit.description,
    Group: edit.group,
    Pinstyle: edit.pinStyle === undefined ? undefined : String(edit.pinStyle),
    key: credentials.key,
  });
}

export function renderingListParams(credentials: Credentials): WireParams {
  return ordered('GetRenderingQualityList', { Account: credentials.account, key: credentials.key });
}

export function eusParams(request: EusReprocess, credentials: Credentials): WireParams {
  return ordered('EusReprocessAPI', {
    processid: request.processId,
    Account: credentials.account,
    multicoverageid: request.multiMapId,
    emailsend: request.sendEmail ? '1' : '0',
    key: credentials.key,
  });
}

export type RawParamsCheck = { ok: true; params: WireParams } | { ok: false; unknown: string[]; credentials: string[] };

/**
 * Parameters given by their spec names (sitewalk call). Names are case-sensitive; Account and key
 * come from the credentials only, so a support paste cannot smuggle in a second key.
 */
export function rawParams(operation: Operation, given: Record<string, string>, credentials: Credentials): RawParamsCheck {
  const known = PARAMETER_ORDER[operation];
  const unknown = Object.keys(given).filter((name) => !known.includes(name));
  const clashing = Object.keys(given).filter((name) => CREDENTIAL_PARAMETERS.includes(name));
  if (unknown.length > 0 || clashing.length > 0) return { ok: false, unknown, credentials: clashing };
  return { ok: true, params: ordered(operation, { ...given, Account: credentials.account, key: credentials.key }) };
}

/** The request parameters an operation takes besides the credentials (for help and messages). */
export function requestParameters(operation: Operation): string[] {
  return PARAMETER_ORDER[operation].filter((name) => !CREDENTIAL_PARAMETERS.includes(name));
}
