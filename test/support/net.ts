// Loopback ports for tests that need an address before anything listens on it (an edit made while
// the service is not there yet, a service that comes up later at the same address).
import { createServer, type Server, type Socket } from 'node:net';

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

/**
 * Keeps count of a server's open connections so that closing it can cut them: `server.close` alone
 * waits for every keep-alive client to hang up, and a test of a server going away would wait too.
 */
export function trackConnections(server: Server): { destroyAll(): void } {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
