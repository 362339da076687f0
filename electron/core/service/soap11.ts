// SOAP 1.1 binding: POST {servicePath}, text/xml, and a SOAPAction header holding the quoted
// "<namespace><Operation>" (ASMX dispatches on it and faults on a value it does not know).
import { soapCodec } from './soap';
import { SOAP11_ENVELOPE_NS } from './xml';

export const soap11 = soapCodec('soap11', SOAP11_ENVELOPE_NS, (operation, connection) => ({
  'Content-Type': 'text/xml; charset=utf-8',
  SOAPAction: `"${connection.namespace}${operation}"`,
  Accept: 'text/xml, */*;q=0.1',
}));
