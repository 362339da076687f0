// Turns a successful answer's payload into domain results. The spec leaves the result strings
// unpublished (§4.1, §4.3, §7.2), so: a result that reads as an error (patterns.ts) becomes a fault
// with source 'result'; a create's site ID is read from the text (digits alone or a labelled ID);
// anything else is kept verbatim as the message. The raw text is always kept for support.
import type { Answer } from './codec';
import { wrongShape } from './codec';
import { faultError } from './errors';
import { SITE_ID_PATTERNS, isErrorResult } from './patterns';
import type { CallError, CallResult, CarriedBy, RenderingQuality, ReprocessResult, SiteResult } from './types';
import { childOf, childrenOf, deepText, type XmlElement } from './xml';

type Interpreted<T> = { ok: true; value: T } | { ok: false; error: CallError };

/** The site ID a result text carries, or null. */
export function extractSiteId(text: string): string | null {
  for (const pattern of SITE_ID_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** A 200 result that reads as an error, as a fault; null when it reads as a success. */
export function resultError(raw: string): CallError | null {
  const text = raw.trim();
  if (text === '' || !isErrorResult(text)) return null;
  return faultError({ code: 'result', reason: text, source: 'result', detail: 'HTTP 200 result text read as an error (see patterns.ts)' });
}

/** The text of a string result element; a missing or xsi:nil element is an empty result. */
export function resultText(element: XmlElement | null, answer: Answer): Interpreted<string> {
  if (!element) return { ok: true, value: '' };
  if (isNil(element)) return { ok: true, value: '' };
  if (element.children.length > 0) {
    return wrongShape(answer, `the result <${element.qname}> holds elements (<${element.children[0]!.qname}>…) instead of text`);
  }
  return { ok: true, value: element.text };
}

export function interpretSiteResult(raw: string, edit: { siteId?: string }): Interpreted<SiteResult> {
  const error = resultError(raw);
  if (error) return { ok: false, error };
  const text = raw.trim();
  if (edit.siteId !== undefined) {
    // An edit keeps its ID whatever the text says; the text is the confirmation to show.
    return { ok: true, value: { siteId: edit.siteId, message: text || `Site ${edit.siteId} updated.`, raw } };
  }
  const siteId = extractSiteId(text);
  const message =
    siteId === null
      ? text || 'The service accepted the new site but did not return its ID.'
      : /^\d+$/.test(text)
        ? `Site created; the service gave it ID ${siteId}.`
        : text;
  return { ok: true, value: { siteId, message, raw } };
}

export function interpretReprocessResult(raw: string): Interpreted<ReprocessResult> {
  const error = resultError(raw);
  if (error) return { ok: false, error };
  return { ok: true, value: { message: raw.trim() || 'The submission was reprocessed.', raw } };
}

/**
 * The rendering quality list. Error stays null when the element was absent and '' when it was
 * present and empty. When every entry carries an error text, the list is the service's way of
 * reporting a failure (spec §7.1: every entry has an Error field) and becomes a 'result' fault.
 */
export function interpretRenderingList(element: XmlElement | null, answer: Answer, namespace: string): Interpreted<RenderingQuality[]> {
  if (!element || isNil(element)) return { ok: true, value: [] };
  const entries = childrenOf(element, null, 'Rendering').filter((entry) => entry.ns === namespace || entry.ns === '');
  const field = (entry: XmlElement, name: string): string | null => {
    const child = childOf(entry, null, name);
    if (!child || isNil(child)) return null;
    return deepText(child);
  };
  const errors = entries.map((entry) => field(entry, 'Error'));
  if (entries.length > 0 && errors.every((error) => error !== null && error.trim() !== '')) {
    const reason = errors[0]!.trim();
    return {
      ok: false,
      error: faultError({ code: 'result', reason, source: 'result', detail: `every Rendering entry (${entries.length}) carries an Error text` }),
    };
  }
  const qualities: RenderingQuality[] = [];
  for (const [index, entry] of entries.entries()) {
    const idText = (field(entry, 'RenderingQualityid') ?? '').trim();
    if (!/^[+-]?\d+$/.test(idText) || !Number.isSafeInteger(Number(idText))) {
      return wrongShape(answer, `Rendering entry ${index + 1} has RenderingQualityid "${idText}", which is not a whole number`);
    }
    qualities.push({ id: Number(idText), name: field(entry, 'RenderingQualityname') ?? '', error: errors[index] ?? null });
  }
  return { ok: true, value: qualities };
}

function isNil(element: XmlElement): boolean {
  // xsi:nil comes with whatever prefix the document bound to the XML Schema instance namespace.
  return Object.entries(element.attributes).some(([name, value]) => name.endsWith(':nil') && value.trim() === 'true');
}

/** A result (or its failure) of a call another binding carried, saying so. */
export function withCarrier<T extends object>(result: CallResult<T>, carriedBy: CarriedBy | undefined): CallResult<T> {
  if (!carriedBy) return result;
  return result.ok ? { ok: true, value: { ...result.value, carriedBy } } : { ok: false, error: { ...result.error, carriedBy } };
}
