// SOAP 1.2 binding: POST {servicePath}, application/soap+xml, no SOAPAction header (the spec's
// table gives the content type without an action parameter, and ASMX dispatches on the body).
import { soapCodec } from './soap';
import { SOAP12_ENVELOPE_NS } from './xml';

export const soap12 = soapCodec('soap12', SOAP12_ENVELOPE_NS, () => ({
  'Content-Type': 'application/soap+xml; charset=utf-8',
  Accept: 'application/soap+xml, */*;q=0.1',
}));
