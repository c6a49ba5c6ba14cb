import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Server } from '@nestjs/microservices';
import type { Socket } from 'node:net';
import { of } from 'rxjs';
import { KafkaStreams, StreamsError } from '@nest-streams/streams';
import { KeyOwnerLocator } from '../../ownership/internals/key-owner.locator';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { INSTANCE_REPORT_SOURCE } from '../../streams.constants';
import { StreamsMetricsService } from '../../metrics/streams-metrics.service';
import { GuardedTcpServer, remoteOf } from './guarded-tcp.server';
import {
  InstanceAuthenticator,
  type RefusalReason,
} from '../../security/internals/instance.authenticator';
import { RefusalLog } from '../../security/internals/refusal.log';
import {
  decodeRemoteQueryRequest,
  queryPattern,
  type RemoteQueryResponse,
} from './interactive-query.protocol';
import { toWire } from './wire-codec';

/** What the query server uses of a @nestjs/microservices transport server. */
type TransportServer = Pick<Server, 'addHandler' | 'listen' | 'close'>;

/**
 * What answers another instance's request for this instance's report (the cluster page's
 * `InstanceReporter`, provided under `INSTANCE_REPORT_SOURCE`): the report, JSON-safe data
 * for the wire codec. Without one, such requests are answered `NO_REPORTS`.
 */
export interface InstanceReportSource {
  report(): Promise<unknown>;
}

/**
 * This instance's side of instance-to-instance queries: a @nestjs/microservices server (TCP
 * by default, any transport strategy by configuration) answering the pattern
 * `nest-streams.query:<endpoint>` with `KafkaStreams.query()` (interactive queries v2) over the
 * local stores, and this instance's report for the cluster page. Failures travel as data (per
 * partition, or for the whole request), never as transport errors. Started before `KafkaStreams` (its endpoint travels in the assignment),
 * closed after it.
 *
 * Only members of the application are answered: every message must be sealed with the
 * cluster secret (`InstanceAuthenticator`: HMAC, replay window, nonce, target); any
 * other is refused before any store is read, counted (`query_refusals_total{reason}`) and
 * logged (rate-limited), and its answer says so without a result. The TCP transport is
 * hardened besides (`GuardedTcpServer`: connection, size and time limits; mutual TLS with
 * `security.tls`).
 *
 * Errors: `listen()` rejects when the transport cannot listen (a port in use: choose another
 * `queries.remote.port`).
 */
@Injectable()
export class InteractiveQueryServer {
  private readonly logger = new Logger('InteractiveQueryServer');
  private readonly refusals = new RefusalLog((message) => this.logger.warn(message));
  private readonly authenticator: InstanceAuthenticator;
  private server: TransportServer | undefined;

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KafkaStreams) private readonly streams: KafkaStreams,
    @Optional()
    @Inject(StreamsMetricsService)
    private readonly metrics?: StreamsMetricsService,
    @Optional()
    @Inject(INSTANCE_REPORT_SOURCE)
    private readonly reporter?: InstanceReportSource,
    // The module's, shared with forwarded requests (one nonce cache); a new one when alone.
    @Optional()
    @Inject(InstanceAuthenticator)
    authenticator?: InstanceAuthenticator,
    // Fresh standby lags (the module's); without it a standby answers with the last ends known.
    @Optional()
    @Inject(KeyOwnerLocator)
    private readonly locator?: KeyOwnerLocator,
  ) {
    this.authenticator = authenticator ?? new InstanceAuthenticator(settings.security);
  }

  /** The endpoint this server answers for, when remote queries are on. */
  get endpoint(): string | undefined {
    return this.settings.queryEndpoint;
  }

  async listen(): Promise<void> {
    const remote = this.settings.remoteQueries;
    const endpoint = this.settings.queryEndpoint;
    if (!remote || !endpoint || this.server) return;
    const tcp =
      remote.transport === 'custom'
        ? undefined
        : new GuardedTcpServer({
            host: remote.host ?? this.settings.self?.host ?? '127.0.0.1',
            port: remote.port,
            limits: this.settings.queryServerLimits,
            tls: this.settings.security.tls,
            onRefusal: (reason, from) => this.refused(reason, from),
          });
    const server: TransportServer = tcp ?? (remote as { server: TransportServer }).server;
    const pattern = queryPattern(endpoint);
    server.addHandler(pattern, async (data: unknown, context?: unknown) => {
      const socket = socketOf(context);
      const opened = this.authenticator.open(pattern, data);
      if (!opened.ok) {
        this.refused(opened.reason, socket && remoteOf(socket), opened.from);
        if (socket) tcp?.closeAfterAnswer(socket);
        return of(this.refusal(opened.reason));
      }
      if (socket) tcp?.trust(socket);
      const answer = await this.answer(opened.payload);
      return of(this.authenticator.sealAnswer(pattern, opened.nonce, answer));
    });
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

  /** Counts and logs (rate-limited) one refused message or connection. */
  private refused(reason: RefusalReason, remote: string | undefined, claimed?: string): void {
    this.metrics?.recordQueryRefusal(reason);
    this.refusals.refused(reason, remote, claimed);
  }

  /** The answer to a refused message: why, and no result (not sealed: the sender is unknown). */
  private refusal(reason: RefusalReason): RemoteQueryResponse {
    return {
      ok: false,
      servedBy: this.settings.servedBy,
      failure: {
        code: 'QUERY_REFUSED',
        retriable: reason === 'overloaded',
        message: `refused (${reason}): only instances of this application sharing its security.clusterSecret, with clocks within security.replayWindowMs, are answered`,
      },
    };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.close();
  }

  /** @internal Answers one opened (authenticated) message (public for tests). */
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
      // A read a standby copy may answer says its lag against changelog ends read now.
      if (decoded.request.requireActive !== true) await this.locator?.requireFreshLags();
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

/** The connection a TCP message came on (the transport's context), when there is one. */
function socketOf(context: unknown): Socket | undefined {
  const ref = (context as { getSocketRef?: () => { netSocket?: Socket } } | undefined)
    ?.getSocketRef;
  return typeof ref === 'function' ? ref.call(context).netSocket : undefined;
}
