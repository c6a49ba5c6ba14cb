import { Inject, Injectable } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { HostInfo } from '@nest-streams/streams';
import { OwnerUnreachableError } from '../../routing/owner-unreachable.error';
import { RemoteQueryError } from '../../errors/remote-query.error';
import { StreamsModuleSettings } from '../../internals/streams-module.settings';
import {
  queryPattern,
  type RemoteQueryRequest,
  type RemoteQueryResponse,
} from './interactive-query.protocol';

/**
 * Sends queries to other instances over @nestjs/microservices: one pooled TCP client per
 * endpoint (connections kept open and re-made after a failure), or the configured client of a
 * custom transport. Each query has a timeout.
 *
 * Errors: `OwnerUnreachableError` (retriable) when the instance does not answer in time or
 * cannot be connected to; `RemoteQueryError` (`REMOTE_QUERIES_DISABLED`, not retriable) when
 * this instance has no remote query transport (set `remoteQueries` in the module options).
 */
@Injectable()
export class InteractiveQueryClient {
  private readonly clients = new Map<string, ClientProxy>();

  constructor(@Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings) {}

  async send(endpoint: string, request: RemoteQueryRequest): Promise<RemoteQueryResponse> {
    const client = this.clientFor(endpoint);
    const timeoutMs = this.settings.remoteQueryTimeoutMs;
    try {
      return await lastValueFrom(
        client
          .send<RemoteQueryResponse, RemoteQueryRequest>(queryPattern(endpoint), request)
          .pipe(timeout(timeoutMs)),
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
      client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: { host: address.host, port: address.port },
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
