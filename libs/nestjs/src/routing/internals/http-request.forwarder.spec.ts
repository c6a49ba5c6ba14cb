import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { HostInfo } from '@nest-streams/streams';
import { HttpRequestForwarder } from './http-request.forwarder';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';

/**
 * An owner whose keep-alive connections die as they are reused: it answers the first request
 * of each connection (keep-alive) and resets the connection when a second one arrives on it,
 * as a server closing an idle connection at the moment the client reuses it.
 */
class ClosingOwner {
  connections = 0;
  readonly requests: string[] = [];
  /** The `x-attempt` header of each request, as received. */
  readonly attempts: string[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  endpoint = '';

  async start(): Promise<this> {
    this.server = createServer((socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      let served = 0;
      socket.on('data', (data: Buffer) => {
        const text = data.toString('latin1');
        this.attempts.push(...[...text.matchAll(/^x-attempt: (\S+)$/gm)].map((m) => m[1]));
        const lines = text.match(/^[A-Z]+ \S+ HTTP\/1\.1$/gm) ?? [];
        for (const line of lines) {
          this.requests.push(line);
          if (served++ > 0) {
            socket.resetAndDestroy();
            return;
          }
          const body = '{"ok":true}';
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`,
          );
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.endpoint = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

describe('HttpRequestForwarder', () => {
  let owner: ClosingOwner;
  let forwarder: HttpRequestForwarder;

  beforeEach(async () => {
    owner = await new ClosingOwner().start();
    forwarder = new HttpRequestForwarder(
      new StreamsModuleSettings({
        streams: { applicationId: 'forwarder-spec', bootstrapServers: ['127.0.0.1:1'] },
      }),
    );
  });

  afterEach(async () => {
    forwarder.onApplicationShutdown();
    await owner.stop();
  });

  let signed = 0;
  const forward = (method: string, url: string) =>
    forwarder.forward(
      { method, url, headers: {}, body: method === 'POST' ? { a: 1 } : undefined },
      HostInfo.parse(owner.endpoint),
      () => ({ 'X-Attempt': String(++signed) }),
      2000,
    );

  it('sends an idempotent request again on a new connection when a reused one was closed', async () => {
    expect((await forward('GET', '/stats/u1')).status).toBe(200);
    const answer = await forward('GET', '/stats/u2');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ ok: true });
    expect(owner.requests).toEqual([
      'GET /stats/u1 HTTP/1.1',
      'GET /stats/u2 HTTP/1.1', // on the reused connection, reset
      'GET /stats/u2 HTTP/1.1', // once more, on a new one
    ]);
    expect(owner.connections).toBe(2);
    // Each attempt signed anew: a hop token is accepted once.
    expect(owner.attempts).toEqual([String(signed - 2), String(signed - 1), String(signed)]);
  });

  it('never sends a POST twice: the owner is reported unreachable', async () => {
    expect((await forward('GET', '/stats/u1')).status).toBe(200);
    await expect(forward('POST', '/stats/u1/orders')).rejects.toThrow(OwnerUnreachableError);
    expect(owner.requests).toEqual(['GET /stats/u1 HTTP/1.1', 'POST /stats/u1/orders HTTP/1.1']);
    expect(owner.connections).toBe(1);
  });

  it('reports a refused connection as unreachable, without retrying', async () => {
    await owner.stop();
    await expect(forward('GET', '/stats/u1')).rejects.toThrow(OwnerUnreachableError);
    expect(owner.requests).toEqual([]);
  });
});
