// HTTP POST binding (Sitewalk's default): POST {servicePath}/{Operation} with the parameters as a
// form body. Content-Length is set by the transport from the string body.
import type { BindingCodec } from './codec';
import { encodeParams, operationUrl, readPlain } from './plain';

export const httpPost: BindingCodec = {
  binding: 'http-post',
  build(operation, params, connection) {
    return {
      url: operationUrl(connection, operation),
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
        Accept: 'text/xml, */*;q=0.1',
      },
      body: encodeParams(params),
    };
  },
  read: readPlain,
};
