import { createServer } from 'node:net';

/** Asks the OS for a free loopback TCP port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a loopback TCP port can be listened on now (a restart on a previous port). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    // A client that connects meanwhile is dropped, so that close() never waits for it.
    const server = createServer((socket) => socket.destroy());
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
