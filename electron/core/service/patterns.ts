// The one documented place where Sitewalk reads meaning into the service's free text. The spec
// publishes no error codes, so quota, authentication and validation problems, and 200 results that
// are really errors, are recognised from their wording. Each list covers the sandbox's texts and the
// plausible wordings of the real service and of similar ASMX services; add new wordings here only.

/**
 * The account has no API calls left (spec §5.3 and §8: the key is used to check the call count).
 * Sandbox: "No API calls left for this account."
 */
export const QUOTA_PATTERNS: readonly RegExp[] = [
  /\bno (?:more )?api calls?\b/i, // "No API calls left", "no more API calls available"
  /\bapi calls? (?:limit|quota)\b/i, // "API call limit reached"
  /\bquota\b/i, // "Quota exceeded", "monthly quota used up"
  /\b(?:out of|not enough|insufficient)\s+(?:api\s+)?calls?\b/i, // "Out of API calls"
  /\bcalls? (?:remaining|left|available)\s*(?:[:=]\s*)?0\b/i, // "Calls remaining: 0"
  /\b(?:call|usage|request) limit (?:has been |was )?(?:reached|exceeded)\b/i,
];

/**
 * The service refused the account ID or API key. Sandbox: "Invalid account ID or API key."
 * Deliberately narrow: "Invalid height" must not read as an auth problem, so "invalid" only counts
 * next to account/key words.
 */
export const AUTH_PATTERNS: readonly RegExp[] = [
  /\binvalid (?:account(?: id)?|api ?key|key|credentials?|login|user(?:name)?)\b/i,
  /\b(?:wrong|incorrect|bad|unknown|missing) (?:account(?: id)?|api ?key|key|credentials?)\b/i,
  /\b(?:account(?: id)?|api ?key|key|credentials?) (?:is |are |was )?(?:invalid|incorrect|wrong|not valid|not recogni[sz]ed|expired|revoked|disabled|suspended|locked)\b/i,
  /\bun-?authori[sz]ed\b/i,
  /\bnot authori[sz]ed\b/i,
  /\bauthentication (?:failed|required|error)\b/i,
  /\baccess (?:is )?denied\b/i,
  /\b(?:account|api ?key) (?:was )?not found\b/i,
];

/**
 * The service rejected what was sent (a missing or malformed value, an unknown site or
 * submission). Sending the same request again cannot succeed, so such faults are never retryable.
 * Sandbox: "Missing parameter: height.", "Height must be a whole number of meters.",
 * "Site 123 was not found."
 */
export const VALIDATION_PATTERNS: readonly RegExp[] = [
  /\bmissing (?:parameter|value|field)\b/i,
  /\bmust (?:be|have|contain|not)\b/i,
  /\b(?:is|are) required\b/i,
  /\brequired (?:parameter|field|value)\b/i,
  /\b(?:was |were |is )?not found\b/i,
  /\bdoes not exist\b/i,
  /\bno such\b/i,
  /\binvalid\b/i,
  /\bnot (?:a )?valid\b/i,
  /\bout of range\b/i,
  /\b(?:too long|too short|too large|too small|exceeds? the maximum)\b/i,
  /\bcannot be\b/i,
  /\bnot in (?:a|the) correct format\b/i, // .NET FormatException: "Input string was not in a correct format."
  /\bnot allowed\b/i,
  /\balready exists\b/i,
  /\bduplicate\b/i,
];

/**
 * ASP.NET's request validation refused a value before the operation ran (HTTP GET/POST only):
 * "A potentially dangerous Request.Form value was detected from the client (Sitename="…")."
 * (Request.QueryString for GET), as System.Web.HttpRequestValidationException. Nothing ran, so
 * another binding (SOAP 1.1) can carry the same call; the same request never passes.
 */
export const REQUEST_VALIDATION_PATTERNS: readonly RegExp[] = [
  /\bpotentially dangerous Request\.\w+ value was detected\b/i,
  /\bHttpRequestValidationException\b/,
];

/**
 * ASP.NET refused a query string over httpRuntime's maxQueryStringLength (HTTP 400, a "Runtime
 * Error" page that may keep the exception in a comment), or IIS refused it (HTTP 404.15 / 414).
 */
export const QUERY_TOO_LONG_PATTERNS: readonly RegExp[] = [
  /\bmaxQueryStringLength\b/i,
  /\bquery string\b[^.]{0,80}\b(?:exceeds|too long)\b/i,
  /\bmaxQueryString\b/i,
];

/** The parameter a request-validation message names: `(Sitename="…")`. */
export const REQUEST_VALIDATION_PARAMETER = /\(\s*([^\s=()"]{1,100})\s*="/;

/**
 * A 200 result string that reads as an error (spec §7.2 leaves open whether failures come back
 * in the result). Anchored at the start for the generic words so that a success such as
 * "Site 12 updated." or "Submission P-1 reprocessed…" never matches; quota and auth wordings
 * count anywhere.
 */
export const RESULT_ERROR_PATTERNS: readonly RegExp[] = [
  /^\s*(?:error|errors|exception)\b/i, // "Error: …", "Exception: …"
  /^\s*invalid\b/i, // "Invalid site ID"
  /^\s*(?:failed|failure|fail)\b/i, // "Failed to update site"
  /^\s*(?:unable|could not|cannot|can't)\b/i, // "Unable to save site"
  /^\s*(?:missing|required)\b/i, // "Missing height"
  /^\s*(?:denied|access denied|not authori[sz]ed|unauthori[sz]ed)\b/i,
  /\bnot found\b/i, // "Site 123 was not found."
  /^\s*system\.[a-z.]*exception\b/i, // a .NET exception type leaking into the result
  ...QUOTA_PATTERNS,
  ...AUTH_PATTERNS,
];

/** Prefix ASMX puts before an operation's exception in a SOAP 1.1/1.2 fault reason. */
export const ASMX_FAULT_PREFIX = /^\s*Server was unable to process request\.\s*-+>\s*/i;

/**
 * A .NET exception as HTTP GET/POST write it in a 500 text/plain body: "System.ArgumentException:
 * message" on the first line, then (sometimes) "   at Namespace.Type.Method()" stack lines.
 */
export const DOTNET_EXCEPTION_TYPE = /^\s*((?:[A-Za-z_][\w`]*\.)+[A-Za-z_][\w`]*(?:Exception|Fault|Error))\s*:\s*/;
export const DOTNET_STACK_LINE = /^\s+at\s+\S|^\s*---\s*End of (?:inner exception )?stack trace/i;

export function matchesAny(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((pattern) => pattern.test(text));
}

export const isQuotaText = (text: string): boolean => matchesAny(QUOTA_PATTERNS, text);
export const isAuthText = (text: string): boolean => matchesAny(AUTH_PATTERNS, text);
export const isValidationText = (text: string): boolean => matchesAny(VALIDATION_PATTERNS, text);
export const isErrorResult = (text: string): boolean => matchesAny(RESULT_ERROR_PATTERNS, text);
export const isRequestValidationText = (text: string): boolean => matchesAny(REQUEST_VALIDATION_PATTERNS, text);
export const isQueryTooLongText = (text: string): boolean => matchesAny(QUERY_TOO_LONG_PATTERNS, text);

/**
 * A site ID in a result string: digits alone ("100026"), or labelled ("Site ID: 123",
 * "SiteID=123", "Site id #123", "New site 123 created"). Null when the text holds none.
 */
export const SITE_ID_PATTERNS: readonly RegExp[] = [
  /^\s*(\d+)\s*$/,
  /\bsite\s*_?id\b\s*(?:is|:|=|#)?\s*#?\s*(\d+)\b/i,
  /\bsite\s+#?(\d+)\s+(?:was\s+|has been\s+)?(?:created|added|saved|updated)\b/i,
  /\bcreated\b[^.\d]*?\bid\s*(?:is|:|=|#)?\s*(\d+)\b/i,
];
