// SOAP 1.1 binding: POST {servicePath}, text/xml, and a SOAPAction header holding the quoted
// "<namespace><Operation>" (ASMX dispatches on it and faults on a value it does not know).
import type { BindingCodec } from './codec';
import { serviceUrl } from './codec';
import { envelope, readSoap } from './soap';
import { SOAP11_ENVELOPE_NS } from './xml';

export const soap11: BindingCodec = {
  binding: 'soap11',
  build(operation, params, connection) {
    return {
      url: serviceUrl(connection),
      method: 'POST',
      headers: {
        'Content-Type': 'text/xml; charset=utf-8',
        SOAPAction: `"${connection.namespace}${operation}"`,
        Accept: 'text/xml, */*;q=0.1',
      },
      body: envelope(SOAP11_ENVELOPE_NS, operation, params, connection),
    };
  },
  read(operation, answer, connection) {
    return readSoap(SOAP11_ENVELOPE_NS, operation, answer, connection);
  },
};
