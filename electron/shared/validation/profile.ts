// The one schema for a profile (where a profile's calls go and as which account), shared by the
// settings form, the CLI and the core. Output is ready to store: trimmed text, a base URL without a
// trailing slash, a service path starting with "/", defaults of the real service for what is blank.
// Names are unique (case-insensitively) among the profiles given as context; "Sandbox" is taken by
// the built-in profile. The API key is not part of a profile: it goes to the secret store.
import { z } from 'zod';
import { BINDINGS, REAL_SERVICE, type Binding } from '../domain';
import { addIssue, findXmlForbidden, requiredText, runSchema, type ValidationResult } from './common';

export interface ProfileInput {
  name?: string;
  baseUrl?: string;
  servicePath?: string;
  namespace?: string;
  binding?: string;
  account?: string;
  /**
   * Whether a call that ASP.NET would refuse over HTTP GET/POST (request validation, query length)
   * may go over SOAP 1.1 (or HTTP POST) instead. true/false, or "on"/"off", "yes"/"no", "true"/"false".
   */
  bindingFallback?: boolean | string;
}

export interface ProfileSettings {
  name: string;
  baseUrl: string;
  servicePath: string;
  namespace: string;
  binding: Binding;
  account: string;
  /** Absent in profiles stored before it existed: read as true (see bindingFallbackOf). */
  bindingFallback?: boolean;
}

/** A profile's binding fallback: on unless switched off. */
export function bindingFallbackOf(profile: { bindingFallback?: boolean | undefined }): boolean {
  return profile.bindingFallback !== false;
}

export interface ProfileContext {
  /** Names of the other profiles (not the one being edited). */
  otherNames: readonly string[];
}

export const PROFILE_NAME_MAX = 80;
export const SANDBOX_PROFILE_NAME = 'Sandbox';

const BINDING_HINT = `Binding must be one of ${BINDINGS.join(', ')}.`;

function blankToUndefined(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** A setting that may be left out or blank (then `fallback`); anything given is read by `read`. */
function optionalSetting<T>(fallback: T, read: (value: unknown, ctx: z.RefinementCtx) => T) {
  return z.preprocess(
    blankToUndefined,
    z.unknown().transform((value, ctx): T => (value === undefined || value === null ? fallback : read(value, ctx))),
  );
}

const baseUrl = z.unknown().transform((value, ctx): string => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return addIssue(ctx, `The base URL is required, like ${REAL_SERVICE.baseUrl}.`);
  }
  if (typeof value !== 'string') return addIssue(ctx, 'The base URL must be text.');
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return addIssue(ctx, `The base URL "${text.slice(0, 100)}" is not a web address like ${REAL_SERVICE.baseUrl}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return addIssue(ctx, `The base URL must start with https:// (or http://), not ${url.protocol}//.`);
  }
  if (url.username || url.password) {
    // A password in the URL would be stored in plain text in the profile.
    return addIssue(ctx, 'The base URL must not contain a user name or password; the account ID and API key have their own fields.');
  }
  if (url.search || url.hash) return addIssue(ctx, 'The base URL must not contain "?" or "#".');
  if (url.pathname !== '/' && url.pathname !== '') {
    return addIssue(ctx, `The base URL is the server only (like ${REAL_SERVICE.baseUrl}); put "${url.pathname}" in the service path.`);
  }
  return `${url.protocol}//${url.host}`;
});

const servicePath = optionalSetting(REAL_SERVICE.servicePath, (value, ctx): string => {
  if (typeof value !== 'string') return addIssue(ctx, 'The service path must be text.');
  let text = value.trim();
  if (!text.startsWith('/')) text = `/${text}`;
  if (/[?#\s]/.test(text) || findXmlForbidden(text)) {
    return addIssue(ctx, `The service path must be a path like ${REAL_SERVICE.servicePath}, without spaces, "?" or "#".`);
  }
  if (text.length > 300) return addIssue(ctx, 'The service path is longer than 300 characters.');
  return text;
});

const namespace = optionalSetting(REAL_SERVICE.namespace, (value, ctx): string => {
  if (typeof value !== 'string') return addIssue(ctx, 'The SOAP namespace must be text.');
  const text = value.trim();
  if (/["<>&\s]/.test(text) || findXmlForbidden(text) || !/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    return addIssue(ctx, `The SOAP namespace must be a URI like ${REAL_SERVICE.namespace}.`);
  }
  if (text.length > 300) return addIssue(ctx, 'The SOAP namespace is longer than 300 characters.');
  return text;
});

const binding = optionalSetting(REAL_SERVICE.binding, (value, ctx): Binding => {
  if (typeof value !== 'string') return addIssue(ctx, BINDING_HINT);
  const text = value.trim().toLowerCase();
  if (!(BINDINGS as readonly string[]).includes(text)) return addIssue(ctx, `"${value.trim().slice(0, 40)}" is not a binding. ${BINDING_HINT}`);
  return text as Binding;
});

const FALLBACK_WORDS: Readonly<Record<string, boolean>> = { true: true, on: true, yes: true, 1: true, false: false, off: false, no: false, 0: false };

const bindingFallback = optionalSetting(true, (value, ctx): boolean => {
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' ? FALLBACK_WORDS[value.trim().toLowerCase()] : undefined;
  if (word === undefined) return addIssue(ctx, 'Binding fallback must be on or off.');
  return word;
});

function profileSchema(context: ProfileContext) {
  const taken = new Set(context.otherNames.map((name) => name.trim().toLowerCase()));
  return z.object({
    name: requiredText({ label: 'Profile name', max: PROFILE_NAME_MAX, blankMessage: 'Give the profile a name, like "Main account".' }).transform(
      (name, ctx): string => {
        if (name.toLowerCase() === SANDBOX_PROFILE_NAME.toLowerCase()) {
          return addIssue(ctx, `"${SANDBOX_PROFILE_NAME}" is the built-in profile's name; choose another.`);
        }
        if (taken.has(name.toLowerCase())) return addIssue(ctx, `A profile named "${name}" already exists; choose another name.`);
        return name;
      },
    ),
    baseUrl,
    servicePath,
    namespace,
    binding,
    bindingFallback,
    account: requiredText({ label: 'Account ID', max: 100, blankMessage: 'The account ID is required; it is in the API section of the account settings.' }),
  });
}

/** Validates a profile against the other profiles' names. Never throws. */
export function parseProfile(input: ProfileInput, context: ProfileContext = { otherNames: [] }): ValidationResult<ProfileSettings> {
  if (typeof input !== 'object' || input === null) return { ok: false, issues: [{ field: '', message: 'The profile is missing.' }] };
  return runSchema(profileSchema(context), input) as ValidationResult<ProfileSettings>;
}
