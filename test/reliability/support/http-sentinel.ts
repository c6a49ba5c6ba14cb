import { createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP server that nothing should ever connect to: forged headers name it, and the test
 * asserts it received no connection (forwarding only targets hosts of the cluster metadata).
 * It counts connections and what they sent, and answers nothing.
 */
export class HttpSentinel {
  connections = 0;
  /** The first bytes each connection sent (for the failure message). */
  readonly received: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on('connection', (socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.once('data', (d: Buffer) => this.received.push(d.toString('latin1').slice(0, 200)));
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    });
  }

  /** Listens on a free loopback port. */
  static start(): Promise<HttpSentinel> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (address === null || typeof address === 'string') {
          reject(new Error('sentinel has no port'));
          return;
        }
        resolve(new HttpSentinel(server, address.port));
      });
    });
  }

  get endpoint(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Closes the server and every connection. */
  stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
