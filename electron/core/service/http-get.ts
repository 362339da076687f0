// HTTP GET binding: GET {servicePath}/{Operation}?params. The key travels in the query string, so
// the URL is never put in an error, a log or a message (errors use the endpoint without query).
import type { BindingCodec } from './codec';
import { encodeParams, operationUrl, readPlain } from './plain';

export const httpGet: BindingCodec = {
  binding: 'http-get',
  build(operation, params, connection) {
    return {
      url: `${operationUrl(connection, operation)}?${encodeParams(params)}`,
      method: 'GET',
      headers: { Accept: 'text/xml, */*;q=0.1' },
    };
  },
  read: readPlain,
};
