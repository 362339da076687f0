// Whether the service's ASP.NET front would refuse a site edit over the profile's binding (see
// ../aspnet.ts): for the site form, which warns before saving when the profile does not let
// Sitewalk carry such a call over another binding, and says where it will go when it does. Pure,
// so the renderer runs it on every keystroke; domain field names only (the wire's are in the core).
import { BINDING_NAMES, dangerousIndex, dangerousSnippet, formEncode, isFormBinding, MAX_QUERY_STRING_LENGTH, type AspNetRule } from '../aspnet';
import type { Binding, SiteEdit } from '../domain';
import { formatCoordinate, labelFor } from './rules';

/**
 * What a SitesAPI query spends besides the values: its ten parameter names, their "=" and the nine
 * "&" between them. test/service/request-validation.test.ts checks it against the request the
 * client really builds.
 */
export const SITE_QUERY_FIXED_CHARS = 90;

/** The key is never in the renderer: a query length is estimated with a key this long (a GUID is 36). */
export const ASSUMED_KEY_CHARS = 40;

/** The text fields request validation looks at, in the form's order. */
const CHECKED_FIELDS = ['siteId', 'name', 'description', 'group'] as const;

export interface RefusalWarning {
  /** The domain field ('name', 'description'…), or '' for the whole request (its query length). */
  field: string;
  rule: AspNetRule;
  /** True when Sitewalk will send the site over another binding (the profile allows it); false when the service will refuse it. */
  carried: boolean;
  message: string;
}

export interface RefusalContext {
  binding: Binding;
  /** The profile's "use another binding when needed" setting (default true). */
  bindingFallback: boolean;
  /** The profile's account ID (it is part of the query). */
  account?: string;
  /** Characters of the API key as sent (default ASSUMED_KEY_CHARS). */
  keyChars?: number;
}

/**
 * The refusals ASP.NET would make of this (already validated) site edit over the profile's binding:
 * each text field with markup-like text on HTTP GET/POST, and a GET query over 2,048 characters.
 * Empty for SOAP, and when nothing would be refused.
 */
export function siteRefusalWarnings(edit: SiteEdit, context: RefusalContext): RefusalWarning[] {
  const { binding, bindingFallback: carried } = context;
  if (!isFormBinding(binding)) return [];
  const warnings: RefusalWarning[] = [];
  for (const field of CHECKED_FIELDS) {
    const value = edit[field];
    if (value === undefined) continue;
    const at = dangerousIndex(value);
    if (at < 0) continue;
    const snippet = dangerousSnippet(value, at);
    const label = labelFor(field);
    warnings.push({
      field,
      rule: 'request-validation',
      carried,
      message: carried
        ? `${label} contains "${snippet}", which the service refuses over ${BINDING_NAMES[binding]} (ASP.NET request validation); Sitewalk will send this site over SOAP 1.1 instead.`
        : `${label} contains "${snippet}": the service's ASP.NET request validation refuses a "<" followed by a letter, "!", "/" or "?", and "&#", over ${BINDING_NAMES[binding]}, so saving will fail. Write it differently (for example "${snippet[0]} ${snippet.slice(1)}"), or let the profile use SOAP 1.1 when needed.`,
    });
  }
  if (binding === 'http-get' && warnings.length === 0) {
    const length = estimatedSiteQueryLength(edit, context.account ?? '', context.keyChars ?? ASSUMED_KEY_CHARS);
    if (length > MAX_QUERY_STRING_LENGTH) {
      warnings.push({
        field: '',
        rule: 'query-length',
        carried,
        message: carried
          ? `This site makes a query of about ${length} characters, over the ${MAX_QUERY_STRING_LENGTH} the service takes over HTTP GET; Sitewalk will send it over HTTP POST instead.`
          : `This site makes a query of about ${length} characters, over the ${MAX_QUERY_STRING_LENGTH} the service takes over HTTP GET, so saving will fail. Shorten the description, or let the profile use HTTP POST when needed.`,
      });
    }
  }
  return warnings;
}

/** The length of the SitesAPI query for this edit, as sent (percent-encoded), with a key of `keyChars`. */
export function estimatedSiteQueryLength(edit: SiteEdit, account: string, keyChars: number): number {
  const values = [
    account,
    edit.name ?? '',
    edit.siteId ?? '',
    String(edit.height),
    edit.latitude === undefined ? '' : formatCoordinate(edit.latitude),
    edit.longitude === undefined ? '' : formatCoordinate(edit.longitude),
    edit.description ?? '',
    edit.group ?? '',
    edit.pinStyle === undefined ? '' : String(edit.pinStyle),
  ];
  return SITE_QUERY_FIXED_CHARS + keyChars + values.reduce((sum, value) => sum + formEncode(value).length, 0);
}
