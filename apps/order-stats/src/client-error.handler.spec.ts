import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrors, clientErrorResponse } from './client-error.handler';

/** Writes raw bytes on a new connection; resolves with everything read until the server closes. */
function rawExchange(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.end();
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(payload);
  });
}

describe('answerClientErrors', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    answerClientErrors(server, '127.0.0.1:9999');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 431 to a 1 MB request line, without resetting the connection, every time', async () => {
    const huge = `GET /stats/${'k'.repeat(1_000_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => rawExchange(port, huge)));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(answer).toContain('\r\nX-Served-By: 127.0.0.1:9999\r\n');
      expect(answer).toContain('\r\nConnection: close\r\n');
    }
  });

  it('answers 400 to an unknown method, and serves good requests as before', async () => {
    const bad = await rawExchange(port, 'BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bad).toContain('"code":"HPE_INVALID_METHOD"');
    const good = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(good).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok$/);
  });

  it('writes a complete answer with an exact Content-Length', () => {
    const answer = clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT', 'h:1');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({
      statusCode: 408,
      error: 'Request Timeout',
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
  });
});
