// What ASP.NET does to a request before ASMX reads a parameter, on by default in ASP.NET 4.x:
// request validation (a query or form value that looks like markup is refused, whatever the
// parameter) and the query-string length limit. Only the HTTP GET and POST bindings go through it:
// ASMX reads SOAP bodies as XML, never through Request.Form. Both can be switched off together.
import { firstDangerousValue, type FormPart } from '../../shared/aspnet';
import { ServiceError } from '../errors';
import { TEXT_HTML, type Reply } from './reply';

export { MAX_QUERY_STRING_LENGTH, type FormPart } from '../../shared/aspnet';

export type ValidatedCollection = 'Request.Form' | 'Request.QueryString';

/**
 * Refuses the request the way HttpRequest.ValidateString does (the rule itself, shared with the
 * client that avoids it, is electron/shared/aspnet.ts).
 */
export function validateRequestValues(parts: readonly FormPart[], collection: ValidatedCollection): void {
  const dangerous = firstDangerousValue(parts);
  if (dangerous) throw dangerousValue(collection, dangerous.name, dangerous.value, dangerous.index);
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
