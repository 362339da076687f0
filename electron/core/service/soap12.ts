// SOAP 1.2 binding: POST {servicePath}, application/soap+xml, no SOAPAction header (the spec's
// table gives the content type without an action parameter, and ASMX dispatches on the body).
import type { BindingCodec } from './codec';
import { serviceUrl } from './codec';
import { envelope, readSoap } from './soap';
import { SOAP12_ENVELOPE_NS } from './xml';

export const soap12: BindingCodec = {
  binding: 'soap12',
  build(operation, params, connection) {
    return {
      url: serviceUrl(connection),
      method: 'POST',
      headers: {
        'Content-Type': 'application/soap+xml; charset=utf-8',
        Accept: 'application/soap+xml, */*;q=0.1',
      },
      body: envelope(SOAP12_ENVELOPE_NS, operation, params, connection),
    };
  },
  read(operation, answer, connection) {
    return readSoap(SOAP12_ENVELOPE_NS, operation, answer, connection);
  },
};
