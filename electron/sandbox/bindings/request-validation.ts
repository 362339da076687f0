// What ASP.NET does to a request before ASMX reads a parameter, on by default in ASP.NET 4.x:
// request validation (a query or form value that looks like markup is refused, whatever the
// parameter) and the query-string length limit. Only the HTTP GET and POST bindings go through it:
// ASMX reads SOAP bodies as XML, never through Request.Form. Both can be switched off together.
import { ServiceError } from '../errors';
import { TEXT_HTML, type Reply } from './reply';

/** httpRuntime maxQueryStringLength's default, in characters of the query as sent (still percent-encoded). */
export const MAX_QUERY_STRING_LENGTH = 2048;

export type ValidatedCollection = 'Request.Form' | 'Request.QueryString';

/** One name=value part of a query or form body, decoded; a part without '=' has no name. */
export interface FormPart {
  name: string | null;
  value: string;
}

/**
 * CrossSiteScriptingValidation.IsDangerousString: the index of the first `<` followed by an ASCII
 * letter, `!`, `/` or `?`, or of the first `&#`; -1 when there is none. `a < b`, `AT&T` and `3<5` pass.
 */
export function dangerousIndex(value: string): number {
  return value.search(/<[A-Za-z!/?]|&#/);
}

/**
 * Refuses the request the way HttpRequest.ValidateString does, checking the collection as
 * ASP.NET holds it: names compared without case, the values of a repeated name joined with commas,
 * names starting with "__" (ASP.NET's own fields) and empty values skipped, NUL characters dropped.
 */
export function validateRequestValues(parts: readonly FormPart[], collection: ValidatedCollection): void {
  const joined = new Map<string | null, { name: string | null; values: string[] }>();
  for (const part of parts) {
    const key = part.name === null ? null : part.name.toLowerCase();
    const entry = joined.get(key);
    if (entry) entry.values.push(part.value);
    else joined.set(key, { name: part.name, values: [part.value] });
  }
  for (const { name, values } of joined.values()) {
    if (name !== null && name.startsWith('__')) continue;
    const value = values.join(',').replaceAll('\0', '');
    if (value === '') continue;
    const at = dangerousIndex(value);
    if (at >= 0) throw dangerousValue(collection, name ?? '', value, at);
  }
}

/** "A potentially dangerous Request.Form value was detected from the client (Sitename="…")." */
function dangerousValue(collection: ValidatedCollection, name: string, value: string, at: number): ServiceError {
  // ASP.NET shows 10 characters before the match and up to 20 from it, marking what it cut with "...".
  const start = at - 10 > 0 ? at - 10 : 0;
  const end = at + 20;
  const shown = `${start > 0 ? '...' : ''}${value.slice(start, Math.min(end, value.length))}${end < value.length ? '...' : ''}`;
  return new ServiceError(
    `A potentially dangerous ${collection} value was detected from the client (${name}="${shown}").`,
    'System.Web.HttpRequestValidationException',
    'route',
    'Client',
    'System.Web.HttpRequest.ValidateString(String value, String collectionKey, RequestValidationSource requestCollection)',
  );
}

export const QUERY_TOO_LONG_MESSAGE = 'The length of the query string for this request exceeds the configured maxQueryStringLength value.';

/** HTTP 400 with ASP.NET's "Runtime Error" page (what a remote client sees), the exception in a comment as on the server's own page. */
export function queryTooLongReply(): Reply {
  return { status: 400, headers: { 'Content-Type': TEXT_HTML, 'Cache-Control': 'private' }, body: RUNTIME_ERROR_PAGE };
}

const RUNTIME_ERROR_PAGE = `<!DOCTYPE html>
<html>
    <head>
        <title>Runtime Error</title>
        <meta name="viewport" content="width=device-width" />
        <style>
         body {font-family:"Verdana";font-weight:normal;font-size: .7em;color:black;}
         p {font-family:"Verdana";font-weight:normal;color:black;margin-top: -5px}
         b {font-family:"Verdana";font-weight:bold;color:black;margin-top: -5px}
         H1 { font-family:"Verdana";font-weight:normal;font-size:18pt;color:red }
         H2 { font-family:"Verdana";font-weight:normal;font-size:14pt;color:maroon }
         pre {font-family:"Consolas","Lucida Console",Monospace;font-size:11pt;margin:0;padding:0.5em;line-height:14pt}
        </style>
    </head>

    <body bgcolor="white">

            <span><H1>Server Error in '/' Application.<hr width=100% size=1 color=silver></H1>

            <h2> <i>Runtime Error</i> </h2></span>

            <font face="Arial, Helvetica, Geneva, SunSans-Regular, sans-serif ">

            <b> Description: </b>An application error occurred on the server. The current custom error settings for this application prevent the details of the application error from being viewed remotely (for security reasons). It could, however, be viewed by browsers running on the local server machine.
            <br><br>

    </body>
</html>
<!--
[HttpException]: ${QUERY_TOO_LONG_MESSAGE}
   at System.Web.HttpRequest.ValidateInputIfRequiredByConfig()
   at System.Web.HttpApplication.PipelineStepManager.ValidateHelper(HttpContext context)
-->
`;
