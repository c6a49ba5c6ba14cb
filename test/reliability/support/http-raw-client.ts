import { request, type IncomingHttpHeaders } from 'node:http';

/** A request sent as is: the path is written verbatim on the request line. */
export interface RawRequest {
  readonly method: string;
  /** Request target, verbatim (`/stats/a%2Fb`, `/stats/../x`, `http://host/stats/u`...). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What came back. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The connection failed (refused, reset, closed without an answer, or no answer in time). */
export class DroppedConnectionError extends Error {}

/**
 * Sends one request on a fresh connection (no keep-alive: a server that closes after an answer
 * cannot be mistaken for a dropped request) and reads the whole answer.
 *
 * @throws DroppedConnectionError when no complete answer arrives within `timeoutMs`.
 * @throws the `http` module's own error when it refuses the request before sending it (a
 *   test bug: the generator must only produce what can go on the wire).
 */
export function sendRaw(port: number, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let sent = false;
    let client: ReturnType<typeof request>;
    const headers: Record<string, string> = { ...req.headers };
    // Node sends DELETE/OPTIONS bodies without framing unless the length is given.
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    try {
      client = request(
        {
          host: '127.0.0.1',
          port,
          method: req.method,
          path: req.path,
          headers,
          agent: false,
          setHost: !Object.keys(req.headers).some((h) => h.toLowerCase() === 'host'),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => fail(e));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(sent ? new DroppedConnectionError(error.message) : error);
    };
    const timer = setTimeout(
      () => client.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    client.on('error', fail);
    if (req.body !== undefined) client.write(req.body);
    client.end();
    sent = true;
  });
}
