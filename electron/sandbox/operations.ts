// The three operations as pure rules on the state, one function each, binding-agnostic: they take
// the parameters by their wire names (null = absent) and return a result or throw a ServiceError.
// Invariant: every check runs before the first change, so a rejected call changes nothing — not
// even the quota; a successful call costs exactly one API call.
import { PIN_STYLES, type PinStyle } from '../shared/domain';
import { invalid, ServiceError } from './errors';
import type { MailMessage, PushAttempt, RenderingQualityEntry, SandboxAccount, SandboxState, SandboxSubmission } from './state';

export type OperationName = 'SitesAPI' | 'GetRenderingQualityList' | 'EusReprocessAPI';

/** Parameters in the order of the published request shapes (spec §4). */
export const OPERATION_PARAMS: Readonly<Record<OperationName, readonly string[]>> = {
  SitesAPI: ['Account', 'Sitename', 'Siteid', 'height', 'Latitude', 'Longitude', 'Description', 'Group', 'Pinstyle', 'key'],
  GetRenderingQualityList: ['Account', 'key'],
  EusReprocessAPI: ['processid', 'Account', 'multicoverageid', 'emailsend', 'key'],
};

export const OPERATION_NAMES = Object.keys(OPERATION_PARAMS) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(OPERATION_PARAMS, name);
}

export type Params = Readonly<Record<string, string | null>>;

export type OperationResult = { kind: 'string'; text: string } | { kind: 'renderings'; list: RenderingQualityEntry[] };

export interface OperationOutcome {
  result: OperationResult;
  /** XML pushes to start after the answer is decided (already recorded in state.pushes as pending). */
  pushes: PushAttempt[];
}

export interface OperationContext {
  state: SandboxState;
  now: () => Date;
}

export const AUTH_MESSAGE = 'Invalid account ID or API key.';
export const QUOTA_MESSAGE = 'No API calls left for this account.';

/** Generous text limits; the real service publishes none. */
const LIMITS = { Sitename: 200, Description: 2000, Group: 100, Siteid: 64, processid: 200, multicoverageid: 18 } as const;
export const MAX_HEIGHT_M = 10_000;

export function runOperation(name: OperationName, params: Params, context: OperationContext): OperationOutcome {
  for (const param of OPERATION_PARAMS[name]) checkXmlChars(param, params[param]);
  const account = authenticate(context.state, params);
  switch (name) {
    case 'SitesAPI':
      return { result: { kind: 'string', text: sitesApi(account, params, context) }, pushes: [] };
    case 'GetRenderingQualityList':
      spendCall(account);
      return { result: { kind: 'renderings', list: context.state.renderingQualities.map((q) => ({ ...q })) }, pushes: [] };
    case 'EusReprocessAPI':
      return eusReprocessApi(account, params, context);
  }
}

// ---------------------------------------------------------------------------------------------
// Authentication and quota

function authenticate(state: SandboxState, params: Params): SandboxAccount {
  const id = (params.Account ?? '').trim();
  const key = params.key ?? '';
  const account = state.accounts.find((a) => a.id === id);
  if (!account || key === '' || account.key !== key) throw new ServiceError(AUTH_MESSAGE, 'System.UnauthorizedAccessException');
  if (account.callsLeft <= 0) throw new ServiceError(QUOTA_MESSAGE, 'System.InvalidOperationException');
  return account;
}

/** Called once per successful call, after every check has passed. */
function spendCall(account: SandboxAccount): void {
  account.callsLeft -= 1;
}

// ---------------------------------------------------------------------------------------------
// SitesAPI

function sitesApi(account: SandboxAccount, params: Params, { state, now }: OperationContext): string {
  const siteId = text(params, 'Siteid');
  const existing = siteId === '' ? null : state.sites.find((s) => s.id === siteId && s.account === account.id);
  if (siteId !== '' && !existing) throw invalid(`Site ${idForMessage(siteId)} was not found.`);

  const height = readHeight(params.height);
  const latitude = readCoordinate(params, 'Latitude', 90, existing === null);
  const longitude = readCoordinate(params, 'Longitude', 180, existing === null);
  const name = text(params, 'Sitename');
  const description = text(params, 'Description');
  const group = text(params, 'Group');
  const pinStyle = readPinStyle(params.Pinstyle);

  const at = now().toISOString();
  spendCall(account);
  if (existing) {
    existing.height = height;
    if (latitude !== null) existing.latitude = latitude;
    if (longitude !== null) existing.longitude = longitude;
    if (name !== '') existing.name = name;
    if (description !== '') existing.description = description;
    if (group !== '') existing.group = group;
    if (pinStyle !== null) existing.pinStyle = pinStyle;
    existing.updatedAt = at;
    return `Site ${existing.id} updated.`;
  }
  const id = String(state.nextSiteId);
  state.nextSiteId += 1;
  state.sites.push({
    id,
    account: account.id,
    name,
    height,
    latitude: latitude!,
    longitude: longitude!,
    description,
    group,
    pinStyle: pinStyle ?? 1,
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

function readHeight(raw: string | null | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') throw invalid('Height is required: a whole number of meters, like 30.');
  if (/^-\s*\d+$/.test(value)) throw invalid(`Height must be a whole number of meters, not negative; ${shown(value)} is below zero.`);
  if (!/^\+?\d+$/.test(value)) throw invalid(`Height must be a whole number of meters, like 30; ${shown(value)} is not.`);
  const meters = Number(value);
  if (meters > MAX_HEIGHT_M) throw invalid(`Height must be at most ${MAX_HEIGHT_M} meters; ${shown(value)} is too tall.`);
  return meters;
}

/** Plain decimal degrees ("44.5", "-111.04", "+7", ".5"); no exponent, comma, hex, NaN or Infinity. */
function readCoordinate(params: Params, name: 'Latitude' | 'Longitude', limit: number, required: boolean): number | null {
  const value = (params[name] ?? '').trim();
  if (value === '') {
    if (required) throw invalid(`${name} is required for a new site: decimal degrees, like ${name === 'Latitude' ? '45.6770' : '-111.0429'}.`);
    return null;
  }
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) || value.length > 40) {
    throw invalid(`${name} must be a plain decimal number of degrees, like ${name === 'Latitude' ? '45.6770' : '-111.0429'}; ${shown(value)} is not.`);
  }
  const degrees = Number(value);
  if (degrees < -limit || degrees > limit) throw invalid(`${name} must be between -${limit} and ${limit} degrees; ${shown(value)} is outside.`);
  return degrees === 0 ? 0 : degrees; // no -0 in the state
}

function readPinStyle(raw: string | null | undefined): PinStyle | null {
  const value = (raw ?? '').trim();
  if (value === '') return null;
  const style = PIN_STYLES.find((known) => String(known) === value);
  if (style !== undefined) return style;
  throw invalid(`Pinstyle must be 1 (red), 2 (blue), 3 (orange) or 4 (green), or blank for the default (1); ${shown(value)} is not.`);
}

// ---------------------------------------------------------------------------------------------
// EusReprocessAPI

function eusReprocessApi(account: SandboxAccount, params: Params, { state, now }: OperationContext): OperationOutcome {
  const processId = text(params, 'processid');
  const multiMapId = text(params, 'multicoverageid');
  const emailsend = (params.emailsend ?? '').trim();

  if (processId === '') throw invalid('processid is required: the ID of the EUS submission to reprocess.');
  if (multiMapId === '') throw invalid('multicoverageid is required: the ID of the Multi Map to use.');
  if (!/^\d+$/.test(multiMapId)) throw invalid(`multicoverageid must contain digits only; ${shown(multiMapId)} is not.`);
  if (emailsend !== '1' && emailsend !== '0') {
    throw invalid(`emailsend must be 1 (send the email again) or 0 (no email); ${emailsend === '' ? 'a blank value' : shown(emailsend)} is not accepted.`);
  }
  const submission = state.submissions.find((s) => s.processId === processId && s.account === account.id);
  if (!submission) throw invalid(`Submission ${idForMessage(processId)} was not found.`);
  const multiMap = state.multiMaps.find((m) => m.id === multiMapId && m.account === account.id);
  if (!multiMap) throw invalid(`Multi Map ${multiMapId} was not found.`);

  const sendEmail = emailsend === '1';
  const at = now().toISOString();
  spendCall(account);
  submission.reprocessHistory.push({ at, fromMultiMapId: submission.multiMapId, toMultiMapId: multiMap.id, sendEmail });
  submission.multiMapId = multiMap.id;
  submission.processedAt = at;

  const pushes: PushAttempt[] = [];
  let emailNote = 'No email sent.';
  if (sendEmail) {
    for (const to of account.recipients) state.mail.push(mailFor(state, account, submission, multiMap.name, to, at));
    const count = account.recipients.length;
    emailNote = count === 0 ? 'No email sent: the account has no EUS recipients.' : `Email sent to ${count} recipient${count === 1 ? '' : 's'}.`;
    // Spec §4.3.3: "It also pushes the XML" — only together with the email (emailsend=0 pushes nothing).
    if (account.eusApiUrl) {
      const push: PushAttempt = {
        id: nextId(state.pushes),
        at,
        account: account.id,
        processId: submission.processId,
        url: account.eusApiUrl,
        status: null,
        error: null,
        pending: true,
        durationMs: null,
      };
      state.pushes.push(push);
      pushes.push(push);
    }
  }
  return { result: { kind: 'string', text: `Submission ${submission.processId} reprocessed into Multi Map ${multiMap.id}. ${emailNote}` }, pushes };
}

function mailFor(state: SandboxState, account: SandboxAccount, submission: SandboxSubmission, multiMapName: string, to: string, at: string): MailMessage {
  return {
    id: nextId(state.mail),
    at,
    account: account.id,
    to,
    subject: `EUS submission ${submission.processId} reprocessed: ${submission.address}`,
    body: [
      `The end-user submission ${submission.processId} was reprocessed.`,
      `Name: ${submission.name}`,
      `Address: ${submission.address}`,
      `Location: ${submission.latitude}, ${submission.longitude}`,
      `Multi Map: ${submission.multiMapId} (${multiMapName})`,
    ].join('\n'),
    processId: submission.processId,
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers

function nextId(list: readonly { id: number }[]): number {
  return list.length === 0 ? 1 : list[list.length - 1]!.id + 1;
}

function text(params: Params, name: keyof typeof LIMITS): string {
  const value = (params[name] ?? '').trim();
  const length = [...value].length;
  if (length > LIMITS[name]) throw invalid(`${name} must be at most ${LIMITS[name]} characters; it has ${length}.`);
  return value;
}

/** An ID as a message shows it: bare when it is a plain number ("Site 123 was not found."), else quoted. */
function idForMessage(id: string): string {
  return /^\d{1,20}$/.test(id) ? id : shown(id);
}

/** A value quoted for a message, cut short so a message never carries a whole payload. */
function shown(value: string): string {
  const chars = [...value];
  return chars.length > 40 ? `'${chars.slice(0, 40).join('')}…'` : `'${value}'`;
}

// XML 1.0 Char: no C0 control but tab, LF, CR; no U+FFFE/U+FFFF; no lone surrogate.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function findXmlForbidden(value: string): { index: number; code: number } | null {
  const match = XML_FORBIDDEN.exec(value);
  return match ? { index: match.index, code: value.charCodeAt(match.index) } : null;
}

function checkXmlChars(name: string, value: string | null | undefined): void {
  if (!value) return;
  const bad = findXmlForbidden(value);
  if (bad) {
    const code = `U+${bad.code.toString(16).toUpperCase().padStart(4, '0')}`;
    throw invalid(`${name} contains a character that XML cannot carry (${code} at position ${bad.index + 1}); remove it and try again.`);
  }
}
