// A loopback HTTP proxy in front of a service that counts how many matching requests are open at
// once: what a test of "at most N in flight" reads, without reaching into the client's insides.
import { createServer, request } from 'node:http';

export interface CountingProxy {
  url: string;
  /** The most matching requests that were open at the same time since the last reset. */
  most(): number;
  reset(): void;
  close(): Promise<void>;
}

/** Proxies everything to `targetUrl`; counts requests whose path or SOAPAction contains `counted`. */
export async function countingProxy(targetUrl: string, counted: string): Promise<CountingProxy> {
  let open = 0;
  let most = 0;
  const target = new URL(targetUrl);
  const server = createServer((req, res) => {
    const counts = `${req.url ?? ''} ${String(req.headers.soapaction ?? '')}`.includes(counted);
    if (counts) most = Math.max(most, ++open);
    res.on('close', () => void (counts && open--));
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    most: () => most,
    reset: () => void (most = 0),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
