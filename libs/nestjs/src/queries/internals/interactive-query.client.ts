import { Inject, Injectable, Optional } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { HostInfo } from '@nest-streams/streams';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { RemoteQueryError } from '../../errors/remote-query.error';
import { instanceTlsOptions } from '../../settings/internals/security.settings';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import {
  InstanceAuthenticator,
  type SealedMessage,
} from '../../security/internals/instance.authenticator';
import {
  queryPattern,
  type RemoteQueryRequest,
  type RemoteQueryResponse,
} from './interactive-query.protocol';

/**
 * Sends queries to other instances over @nestjs/microservices: one pooled TCP client per
 * endpoint (connections kept open and re-made after a failure; TLS with `security.tls`), or
 * the configured client of a custom transport. Each query has a timeout. Every request is
 * sealed with the cluster secret, and only an answer sealed for that very request is taken.
 *
 * Errors: `OwnerUnreachableError` (retriable) when the instance does not answer in time or
 * cannot be connected to; `RemoteQueryError` (not retriable) `REMOTE_QUERIES_DISABLED` when
 * this instance has no remote query transport (set `queries.remote` in the module options),
 * `QUERY_REFUSED` when the instance refused the request (give every instance the same
 * `security.clusterSecret` and synchronised clocks), `ANSWER_UNAUTHENTICATED` when the answer
 * is not sealed with this cluster's secret (something else answers on that endpoint).
 */
@Injectable()
export class InteractiveQueryClient {
  private readonly clients = new Map<string, ClientProxy>();
  private readonly authenticator: InstanceAuthenticator;
  /** This instance as the sender of its queries: its query endpoint. */
  private readonly self: string;

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    // The module's (one scheme, one key list for every channel); a new one when alone.
    @Optional()
    @Inject(InstanceAuthenticator)
    authenticator?: InstanceAuthenticator,
  ) {
    this.authenticator = authenticator ?? new InstanceAuthenticator(settings.security);
    this.self = settings.queryEndpoint ?? settings.servedBy;
  }

  async send(endpoint: string, request: RemoteQueryRequest): Promise<RemoteQueryResponse> {
    const client = this.clientFor(endpoint);
    const timeoutMs = this.settings.remoteQueryTimeoutMs;
    const sealed = this.authenticator.seal(queryPattern(endpoint), this.self, request);
    let answer: unknown;
    try {
      answer = await lastValueFrom(
        client.send<unknown, SealedMessage>(sealed.pattern, sealed).pipe(timeout(timeoutMs)),
      );
    } catch (error) {
      this.drop(endpoint);
      if (error instanceof TimeoutError) {
        throw new OwnerUnreachableError(endpoint, `no answer within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      const message = error instanceof Error ? error.message : describe(error);
      throw new OwnerUnreachableError(endpoint, message, { cause: error });
    }
    return this.opened(endpoint, sealed, answer);
  }

  /** The answer's payload, when it is sealed for `request`; throws otherwise. */
  private opened(endpoint: string, request: SealedMessage, answer: unknown): RemoteQueryResponse {
    const opened = this.authenticator.openAnswer(request, answer);
    if (opened) return opened.payload as RemoteQueryResponse;
    const refusal = answer as Partial<RemoteQueryResponse> | null;
    if (refusal?.ok === false && refusal.failure?.code === 'QUERY_REFUSED') {
      throw new RemoteQueryError(
        'QUERY_REFUSED',
        refusal.failure.retriable === true,
        `${endpoint} refused the query: ${String(refusal.failure.message)}`,
        endpoint,
      );
    }
    throw new RemoteQueryError(
      'ANSWER_UNAUTHENTICATED',
      false,
      `the answer from ${endpoint} is not sealed with this application's cluster secret: is it an instance of this application, with the same security.clusterSecret?`,
      endpoint,
    );
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map((c) => Promise.resolve(c.close()).catch(() => undefined)));
  }

  private clientFor(endpoint: string): ClientProxy {
    const remote = this.settings.remoteQueries;
    const cacheKey = remote?.transport === 'custom' ? '*' : endpoint;
    const existing = this.clients.get(cacheKey);
    if (existing) return existing;
    if (!remote) {
      throw new RemoteQueryError(
        'REMOTE_QUERIES_DISABLED',
        false,
        `the key lives on ${endpoint}, but remote queries are off on this instance: set remoteQueries in StreamsModule's options`,
        endpoint,
      );
    }
    let client: ClientProxy;
    if (remote.transport === 'custom') {
      client = ClientProxyFactory.create(remote.client);
    } else {
      let address: HostInfo;
      try {
        address = HostInfo.parse(endpoint);
      } catch (error) {
        throw new RemoteQueryError(
          'BAD_QUERY_ENDPOINT',
          false,
          `query endpoint '${endpoint}' is not host:port: check remoteQueries on that instance`,
          endpoint,
          { cause: error },
        );
      }
      const tls = this.settings.security.tls;
      client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {
          host: address.host,
          port: address.port,
          ...(tls ? { tlsOptions: instanceTlsOptions(tls) } : {}),
        },
      });
    }
    this.clients.set(cacheKey, client);
    return client;
  }

  private drop(endpoint: string): void {
    const remote = this.settings.remoteQueries;
    if (remote?.transport === 'custom') return;
    const client = this.clients.get(endpoint);
    this.clients.delete(endpoint);
    void Promise.resolve(client?.close()).catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { message, err } = error as { message?: unknown; err?: unknown };
    if (typeof message === 'string') return message;
    if (err instanceof Error) return err.message;
    try {
      return JSON.stringify(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}
