import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  Agent,
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HostInfo } from '@nest-streams/streams';
import { FORWARDED_HEADER, HOP_TOKEN_HEADER, STANDBY_READ_HEADER } from '../../streams.constants';
import { instanceTlsOptions } from '../../settings/internals/security.settings';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';

/** The request to forward, as the handler received it. */
export interface ForwardableRequest {
  readonly method: string;
  /** Path and query string, as received (`/stats/u1?x=1`). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed body (JSON object, string or Buffer), if any. */
  readonly body?: unknown;
}

/** The owner's answer. */
export interface ForwardedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Headers that describe one connection, never forwarded (RFC 9110 §7.6.1), and ours. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Hop headers as the client sent them: never passed on (the forwarding instance sets its own). */
const HOP_HEADERS = new Set([FORWARDED_HEADER, HOP_TOKEN_HEADER, STANDBY_READ_HEADER]);

/**
 * Forwards an HTTP request to another instance of the application with Node's `http` module
 * over pooled keep-alive connections, with a timeout; over HTTPS with `security.tls` (the
 * owner's certificate must be signed by the cluster's CA and name its `application.server`
 * host; this instance shows its own certificate too).
 *
 * A pooled connection that the target closed (its keep-alive timeout) just as it was reused
 * fails before the target saw the request: an idempotent request (GET, HEAD, OPTIONS, PUT,
 * DELETE) is then sent once more on a new connection, within the same timeout.
 *
 * Errors: `OwnerUnreachableError` (retriable) when the target refuses, resets, or does not
 * answer within the timeout; any HTTP status the target answers is a response, not an error.
 */
@Injectable()
export class HttpRequestForwarder implements OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly send: typeof httpRequest;
  /** The TLS settings of a connection to another instance (none without `security.tls`). */
  private readonly tlsOptions: RequestOptions;

  constructor(@Inject(StreamsModuleSettings) settings: StreamsModuleSettings) {
    const pool = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16 };
    const tls = settings.security.tls;
    if (tls) {
      const secure = instanceTlsOptions(tls);
      this.tlsOptions = secure as RequestOptions;
      this.agent = new HttpsAgent({ ...pool, ...secure });
      this.send = httpsRequest as typeof httpRequest;
    } else {
      this.tlsOptions = {};
      this.agent = new Agent(pool);
      this.send = httpRequest;
    }
  }

  /**
   * Sends `request` to `target` with the hop headers `hopHeaders()` gives, asked once per
   * attempt (a hop token is accepted once: a second attempt carries a new one).
   */
  async forward(
    request: ForwardableRequest,
    target: HostInfo,
    hopHeaders: () => Readonly<Record<string, string>>,
    timeoutMs: number,
  ): Promise<ForwardedResponse> {
    const { body, contentType } = encodeBody(request);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      const lower = name.toLowerCase();
      if (value === undefined || NOT_FORWARDED.has(lower) || HOP_HEADERS.has(lower)) continue;
      headers[name] = value;
    }
    if (contentType) headers['content-type'] = contentType;
    if (body) headers['content-length'] = String(body.length);
    headers.host = target.toString();

    const options = (): RequestOptions => {
      const signed = { ...headers };
      for (const [name, value] of Object.entries(hopHeaders())) signed[name.toLowerCase()] = value;
      return {
        host: target.host,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: signed,
      };
    };
    const deadline = Date.now() + timeoutMs;
    const send = (opts: RequestOptions, ms: number) => attempt(this.send, opts, body, ms);
    try {
      return await send({ ...options(), agent: this.agent }, timeoutMs);
    } catch (failure) {
      const error = (failure as SendFailure).error;
      if (!staleConnection(failure as SendFailure, request.method)) {
        throw new OwnerUnreachableError(target.toString(), error.message, { cause: error });
      }
    }
    // The pooled connection had been closed by the owner (its keep-alive timeout) as it was
    // reused: the owner never saw the request. Once more, on a new connection.
    try {
      const oneOff = { ...options(), ...this.tlsOptions, agent: false };
      return await send(oneOff, Math.max(1, deadline - Date.now()));
    } catch (failure) {
      const error = (failure as SendFailure).error;
      throw new OwnerUnreachableError(target.toString(), error.message, { cause: error });
    }
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}

/** Response headers worth relaying (everything but per-connection ones and the length). */
export function relayableHeaders(headers: IncomingHttpHeaders): [string, string | string[]][] {
  return Object.entries(headers).filter(
    (entry): entry is [string, string | string[]] =>
      entry[1] !== undefined && !NOT_FORWARDED.has(entry[0].toLowerCase()),
  );
}

/** Methods safe to send twice (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Why one attempt failed, and whether its connection was a reused, pooled one. */
interface SendFailure {
  readonly error: NodeJS.ErrnoException;
  readonly reusedSocket: boolean;
  readonly responded: boolean;
}

/** A reused pooled connection reset before any answer, for a request safe to send again. */
function staleConnection(failure: SendFailure, method: string): boolean {
  const code = failure.error.code;
  return (
    failure.reusedSocket &&
    !failure.responded &&
    (code === 'ECONNRESET' || code === 'EPIPE') &&
    IDEMPOTENT.has(method.toUpperCase())
  );
}

/** One attempt: resolves with the whole answer, rejects with a {@link SendFailure}. */
function attempt(
  request: (options: RequestOptions, callback: (res: IncomingMessage) => void) => ClientRequest,
  options: RequestOptions,
  body: Buffer | undefined,
  timeoutMs: number,
): Promise<ForwardedResponse> {
  return new Promise<ForwardedResponse>((resolve, reject) => {
    let responded = false;
    const fail = (error: NodeJS.ErrnoException): void => {
      clearTimeout(timer);
      reject({ error, reusedSocket: req.reusedSocket, responded } satisfies SendFailure);
    };
    const req = request(options, (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 502,
          headers: res.headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', fail);
    if (body) req.write(body);
    req.end();
  });
}

function encodeBody(request: ForwardableRequest): { body?: Buffer; contentType?: string } {
  const { body, method } = request;
  if (body === undefined || body === null || method === 'GET' || method === 'HEAD') return {};
  if (Buffer.isBuffer(body)) return { body };
  if (typeof body === 'string') return { body: Buffer.from(body, 'utf8') };
  if (typeof body === 'object' && Object.keys(body).length === 0) {
    // Express leaves `{}` when there was no body to parse.
    const length = request.headers['content-length'];
    if (length === undefined || length === '0') return {};
  }
  const type = String(request.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) {
      for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
    }
    return { body: Buffer.from(form.toString(), 'utf8'), contentType: type };
  }
  // A parsed JSON body (Nest's default parser): sent as JSON again.
  return { body: Buffer.from(JSON.stringify(body), 'utf8'), contentType: 'application/json' };
}
