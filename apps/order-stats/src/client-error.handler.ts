import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a connection may keep sending after its error answer before it is cut. */
const LINGER_MS = 10_000;

/**
 * Answers requests Node's HTTP parser rejects (request line or headers over 16 KiB: 431; an
 * unknown method or malformed syntax: 400; a request timeout: 408), naming this instance in
 * `X-Served-By`, and closes the connection gracefully.
 *
 * Node's default answers and destroys the socket at once: when the client is still sending (a
 * 100 KB key), the unread bytes make the kernel reset the connection and the client often loses
 * the answer (a dropped connection instead of a 431). Here the socket is half-closed after the
 * answer and what the client still sends is drained until it closes (or {@link LINGER_MS}).
 */
export function answerClientErrors(server: Server, servedBy: string): void {
  server.on('clientError', clientErrorHandler(servedBy));
}

/**
 * The `clientError` listener of {@link answerClientErrors}, for platforms that take it as an
 * option instead of a listener (Fastify's `clientErrorHandler`, which replaces its own).
 */
export function clientErrorHandler(
  servedBy: string,
): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  const answered = new WeakSet<Duplex>();
  return (error, socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error.code, servedBy));
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** The raw HTTP answer to a request the parser rejected with this error code. */
export function clientErrorResponse(code: string | undefined, servedBy: string): string {
  const [status, reason] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const body = JSON.stringify({ statusCode: status, error: reason, code: code ?? 'CLIENT_ERROR' });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Served-By: ${servedBy}`,
    '',
    body,
  ].join('\r\n');
}
