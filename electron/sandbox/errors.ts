// The exceptions a service call can end in, with the two faces ASMX gives every exception: the
// SOAP fault (code + faultstring) and the HTTP GET/POST text/plain body (".NET type: message" and a
// stack-trace-like line). Operations and request readers throw these; the bindings only render them.

export type FaultCode = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand';

/** Where the exception came from, which decides how ASMX words it. */
export type ErrorPhase =
  /** Thrown by the operation itself (validation, auth, quota, not found): soap:Server. */
  | 'process'
  /** The request could not be read (bad XML, duplicates, bad encoding): soap:Client. */
  | 'read'
  /** The framework could not route the request (unknown SOAPAction, version mismatch…): the message as is. */
  | 'route';

export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    message: string,
    /** The .NET exception type shown on HTTP GET/POST. */
    readonly exceptionType: string = 'System.ArgumentException',
    readonly phase: ErrorPhase = 'process',
    readonly code: FaultCode = phase === 'process' ? 'Server' : 'Client',
    /** The stack-trace line under the message (HTTP GET/POST bodies). */
    readonly at: string = '',
    /**
     * The HTTP status of a SOAP fault: 500, except 400 for a body the XML reader could not read
     * (ASMX answers Bad Request when an XmlException is behind a client fault). HTTP GET/POST
     * failures are always 500.
     */
    readonly soapStatus: 400 | 500 = 500,
  ) {
    super(message);
  }

  /** faultstring / Reason text, the way ASMX words it for this phase. */
  get soapText(): string {
    if (this.phase === 'process') return `Server was unable to process request. ---> ${this.message}`;
    if (this.phase === 'read') return `Server was unable to read request. ---> ${this.message}`;
    return this.message;
  }

  /**
   * The text/plain body of an HTTP GET/POST 500, as ASMX writes it for a request from the server's
   * own machine: type and HTML-encoded message on the first line, a stack line under it.
   */
  get plainText(): string {
    const at = this.at || 'System.Web.Services.Protocols.WebServiceHandler.Invoke()';
    return `${this.exceptionType}: ${htmlEncode(this.message)}\r\n   at ${at}\r\n`;
  }
}

/** An input the operation rejects (ArgumentException). */
export function invalid(message: string): ServiceError {
  return new ServiceError(message, 'System.ArgumentException');
}

/** A request that could not be read: malformed XML, a duplicated parameter, bad UTF-8. */
export function unreadable(message: string, at = 'System.Web.Services.Protocols.SoapServerProtocol.ReadParameters()'): ServiceError {
  return new ServiceError(message, 'System.InvalidOperationException', 'read', 'Client', at);
}

/** ASMX's own refusal before any operation runs (HTTP GET/POST wording; soap:Client). */
export function framework(message: string, at: string): ServiceError {
  return new ServiceError(message, 'System.InvalidOperationException', 'route', 'Client', at);
}

/** A body the XML reader could not read (malformed XML, a DTD, bytes that are not the charset): 400 on SOAP. */
export function malformedXml(message: string, at = 'System.Xml.XmlTextReaderImpl.Throw(Exception e)'): ServiceError {
  return new ServiceError(message, 'System.InvalidOperationException', 'read', 'Client', at, 400);
}

/** What HttpUtility.HtmlEncode does to a message: & < > " and ' become entities. */
function htmlEncode(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
