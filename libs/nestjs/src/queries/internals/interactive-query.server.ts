import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ServerTCP, type Server } from '@nestjs/microservices';
import { of } from 'rxjs';
import { KafkaStreams, StreamsError } from '@nest-streams/streams';
import { StreamsModuleSettings } from '../../internals/streams-module.settings';
import {
  decodeRemoteQueryRequest,
  queryPattern,
  type RemoteQueryResponse,
} from './interactive-query.protocol';
import { InstanceReporter } from '../../dashboard/internals/instance-reporter';
import { toWire } from './wire-codec';

/** What the query server uses of a @nestjs/microservices transport server. */
type TransportServer = Pick<Server, 'addHandler' | 'listen' | 'close'>;

/**
 * This instance's side of instance-to-instance queries: a @nestjs/microservices server (TCP
 * by default, any transport strategy by configuration) answering the pattern
 * `nest-streams.query:<endpoint>` with `KafkaStreams.query()` (interactive queries v2) over the
 * local stores, and this instance's report for the cluster page. Failures travel as data (per
 * partition, or for the whole request), never as transport errors. Started before `KafkaStreams` (its endpoint travels in the assignment),
 * closed after it.
 *
 * Errors: `listen()` rejects when the transport cannot listen (a port in use: choose another
 * `remoteQueries.port`).
 */
@Injectable()
export class InteractiveQueryServer {
  private readonly logger = new Logger('InteractiveQueryServer');
  private server: TransportServer | undefined;

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KafkaStreams) private readonly streams: KafkaStreams,
    @Optional()
    @Inject(InstanceReporter)
    private readonly reporter?: InstanceReporter,
  ) {}

  /** The endpoint this server answers for, when remote queries are on. */
  get endpoint(): string | undefined {
    return this.settings.queryEndpoint;
  }

  async listen(): Promise<void> {
    const remote = this.settings.remoteQueries;
    const endpoint = this.settings.queryEndpoint;
    if (!remote || !endpoint || this.server) return;
    const server: TransportServer =
      remote.transport === 'custom'
        ? remote.server
        : new ServerTCP({
            host: remote.host ?? this.settings.self?.host ?? '127.0.0.1',
            port: remote.port,
          });
    server.addHandler(queryPattern(endpoint), async (data: unknown) => of(await this.answer(data)));
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) =>
        reject(error instanceof Error ? error : new Error(String(error)));
      try {
        server.listen((error?: unknown) => (error ? fail(error) : resolve()));
      } catch (error) {
        fail(error);
      }
    });
    this.server = server;
    this.logger.log(`answering instance-to-instance queries as ${endpoint}`);
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.close();
  }

  /** @internal Answers one message (public for tests). */
  async answer(data: unknown): Promise<RemoteQueryResponse> {
    const servedBy = this.settings.servedBy;
    const decoded = decodeRemoteQueryRequest(data);
    if (decoded === undefined) {
      return {
        ok: false,
        servedBy,
        failure: {
          code: 'BAD_QUERY',
          retriable: false,
          message: 'not a well-formed query request',
        },
      };
    }
    if (decoded.target !== this.settings.queryEndpoint) {
      return {
        ok: false,
        servedBy,
        failure: {
          code: 'STORE_MIGRATED',
          retriable: true,
          message: `a query meant for ${decoded.target} reached ${String(this.settings.queryEndpoint)}: rediscover the owner and retry`,
        },
      };
    }
    if ('instanceReport' in decoded) {
      if (!this.reporter) {
        return {
          ok: false,
          servedBy,
          failure: {
            code: 'NO_REPORTS',
            retriable: false,
            message: 'this instance sends no report',
          },
        };
      }
      return { ok: true, servedBy, result: toWire(await this.reporter.report()) };
    }
    const store = decoded.request.storeName;
    try {
      const result = await this.streams.query(decoded.request);
      return { ok: true, servedBy, result: toWire(result) };
    } catch (error) {
      if (error instanceof StreamsError) {
        return {
          ok: false,
          servedBy,
          failure: { code: error.code, retriable: error.retriable, message: error.message },
        };
      }
      this.logger.error(`query on store '${store}' failed`, error as Error);
      return {
        ok: false,
        servedBy,
        failure: {
          code: 'QUERY_FAILED',
          retriable: false,
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
  }
}
