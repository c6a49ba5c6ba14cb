import { ServerTCP, type TcpSocket } from '@nestjs/microservices';
import type { Server as NetServer, Socket } from 'node:net';
import type { TlsOptions } from 'node:tls';
import {
  instanceTlsOptions,
  type InstanceTlsSettings,
} from '../../settings/internals/security.settings';
import { QUERY_MESSAGE_PATTERN } from '../../streams.constants';
import type { QueryServerLimits } from '../../settings/internals/streams-module.settings';
import type { RefusalReason } from '../../security/internals/instance.authenticator';

/** What a {@link GuardedTcpServer} listens on, with which limits, and whom it tells of refusals. */
export interface GuardedTcpServerOptions {
  readonly host: string;
  readonly port: number;
  readonly limits: QueryServerLimits;
  /** Mutual TLS with these certificates; plain TCP when undefined. */
  readonly tls?: InstanceTlsSettings;
  /** Told of every refused message or connection (count it, log it). */
  readonly onRefusal: (reason: RefusalReason, remote: string | undefined) => void;
}

/**
 * The @nestjs/microservices TCP server of instance-to-instance queries, hardened for a port
 * anyone on the network may reach. Until a connection has sent one message its handler
 * accepted (see {@link trust}), it may send at most `maxRequestBytes` and must do so within
 * `authTimeoutMs`; a frame that is not a message, a message for a pattern this server does
 * not answer, an event (a message that wants no answer) or a refused message closes it. At
 * most `maxConnections` connections are held. With TLS, clients must show a certificate
 * signed by the cluster's CA before they can send anything (and must finish the handshake
 * within `authTimeoutMs`). A member's connection (trusted) has Nest's framing limits only.
 * Nothing of this is logged per message: refusals go to `onRefusal`, which counts them and
 * rate-limits its log.
 */
export class GuardedTcpServer extends ServerTCP {
  private readonly trusted = new WeakSet<Socket>();
  private readonly guard: GuardedTcpServerOptions;

  constructor(options: GuardedTcpServerOptions) {
    const { limits, tls } = options;
    const tlsOptions: TlsOptions | undefined = tls && {
      ...instanceTlsOptions(tls),
      requestCert: true,
      rejectUnauthorized: true,
      handshakeTimeout: limits.authTimeoutMs,
    };
    super({ host: options.host, port: options.port, ...(tlsOptions ? { tlsOptions } : {}) });
    this.guard = options;
    (this.server as NetServer).maxConnections = limits.maxConnections;
    if (tlsOptions) {
      // A client without a certificate signed by the CA never gets a connection to talk on.
      this.server.on('tlsClientError', (_error: Error, socket: Socket) =>
        this.guard.onRefusal('unauthenticated', remoteOf(socket)),
      );
    }
  }

  /** Marks the connection of an accepted message: it is a member's, no more limits apply. */
  trust(socket: Socket): void {
    this.trusted.add(socket);
  }

  /** Closes the connection of a refused message once its answer is written. */
  closeAfterAnswer(socket: Socket): void {
    setImmediate(() => socket.end());
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  override bindHandler(socket: Socket): void {
    super.bindHandler(socket);
    const { limits, onRefusal } = this.guard;
    const remote = remoteOf(socket);
    const refuse = (reason: RefusalReason): void => {
      if (socket.destroyed) return;
      onRefusal(reason, remote);
      socket.destroy();
    };
    const timer = setTimeout(() => {
      if (!this.trusted.has(socket)) refuse('auth_timeout');
    }, limits.authTimeoutMs);
    timer.unref();
    socket.on('close', () => clearTimeout(timer));
    let received = 0;
    // Before Nest's own listener buffers the chunk.
    socket.prependListener('data', (chunk: Buffer) => {
      if (this.trusted.has(socket)) return;
      received += chunk.length;
      if (received > limits.maxRequestBytes) refuse('oversized');
    });
    socket.on('error', (error: unknown) => {
      // Nest reports a framing error (bad length, not JSON, too long) as a string on the
      // socket; a network error (reset, broken pipe) is an Error with a code.
      const network =
        error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
      if (network) socket.destroy();
      else refuse('malformed_frame');
    });
  }

  /**
   * Only requests for a pattern this server answers reach the handlers; anything else (another
   * pattern, an event without an id, a packet that is not an object) closes the connection.
   */
  override async handleMessage(socket: TcpSocket, rawMessage: unknown): Promise<unknown> {
    const packet = rawMessage as { pattern?: unknown; id?: unknown } | null;
    const pattern = typeof packet === 'object' && packet !== null ? packet.pattern : undefined;
    const known = typeof pattern === 'string' && this.getHandlerByPattern(pattern) !== null;
    if (!known || packet?.id === undefined) {
      const net = socket.netSocket;
      if (!net.destroyed) {
        // A pattern of ours for another instance: sent to the wrong one; anything else: not ours.
        const ours = typeof pattern === 'string' && pattern.startsWith(`${QUERY_MESSAGE_PATTERN}:`);
        this.guard.onRefusal(known || !ours ? 'unauthenticated' : 'wrong_target', remoteOf(net));
        net.destroy();
      }
      return undefined;
    }
    return super.handleMessage(socket, rawMessage);
  }

  /** Framing errors are counted and logged by the guard (rate-limited), not once per frame. */
  protected override handleError(error: unknown): void {
    if (isFramingError(error)) return;
    super.handleError(error as string);
  }
}

/** The address (`ip:port`) a connection comes from, when known. */
export function remoteOf(socket: Socket): string | undefined {
  return socket.remoteAddress === undefined
    ? undefined
    : `${socket.remoteAddress}:${String(socket.remotePort)}`;
}

function isFramingError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { constructor?: { name?: string } }).constructor?.name ===
      'InvalidTcpDataReceptionException'
  );
}
