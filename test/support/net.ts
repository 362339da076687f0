// Loopback ports for tests that need an address before anything listens on it (an edit made while
// the service is not there yet, a service that comes up later at the same address).
import { createServer } from 'node:net';

/** A loopback port nothing listens on (just released by a throwaway listener). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
