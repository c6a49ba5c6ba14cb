import type { ClientOptions, Server } from '@nestjs/microservices';
import type {
  StateLogger,
  StateRestoreListener,
  StreamsConfig,
  StreamsUncaughtExceptionHandler,
} from '@nest-streams/streams';
import type { Registry } from 'prom-client';

/**
 * Instance-to-instance queries over a @nestjs/microservices TCP server (the default). Every
 * instance listens on `port`; its `advertisedHost:port` travels to the others in the
 * assignment (`StreamsMetadata.queryEndpoint`).
 */
export interface TcpRemoteQueryOptions {
  readonly transport?: 'tcp';
  /** Port of this instance's query server. Required: peers must know it before the group forms. */
  readonly port: number;
  /** Interface to bind; default the host of `applicationServer`, else `127.0.0.1`. */
  readonly host?: string;
  /** Host the other instances use to reach this one; default the host of `applicationServer`. */
  readonly advertisedHost?: string;
  /** Per-query timeout in ms; default the module's `forwardingTimeoutMs`. */
  readonly timeoutMs?: number;
}

/**
 * Instance-to-instance queries over any other Nest transport (NATS, Redis, ...): this
 * instance's server (a transport strategy, e.g. `new ServerNats({...})`) answers the message
 * pattern `nest-streams.query:<endpoint>`, and one client (`ClientOptions`) reaches every
 * instance through the broker.
 */
export interface CustomRemoteQueryOptions {
  readonly transport: 'custom';
  readonly server: Server;
  readonly client: ClientOptions;
  /** This instance's unique query address; default `applicationServer`. */
  readonly endpoint?: string;
  /** Per-query timeout in ms; default the module's `forwardingTimeoutMs`. */
  readonly timeoutMs?: number;
}

/** How instances query each other; `false` turns remote queries off (single instance). */
export type RemoteQueryOptions = TcpRemoteQueryOptions | CustomRemoteQueryOptions;

/** Prometheus metrics of the module (prom-client). */
export interface StreamsMetricsOptions {
  /** Collect and serve metrics; default true. */
  readonly enabled?: boolean;
  /** Prefix of every metric name; default `kafka_streams_`. */
  readonly prefix?: string;
  /** Also collect prom-client's default Node.js process metrics; default false. */
  readonly defaultMetrics?: boolean;
  /** The registry to register in; default a new one owned by the module. */
  readonly registry?: Registry;
}

/** How the health indicator answers Kubernetes' probes (see `probeVerdict`). */
export interface StreamsHealthOptions {
  /**
   * `available` (default): ready while RUNNING, and while REBALANCING once the first
   * assignment was restored — a rebalance never takes every replica out of a Service.
   * `strict`: ready only when RUNNING with every store restored (every member of a rebalance
   * goes unready at once: callers behind a Service then get connection errors).
   */
  readonly readiness?: 'available' | 'strict';
  /**
   * Liveness fails when the stream thread, RUNNING with active tasks, made no progress (no
   * fetch completed, no batch processed) for this long; default 300000 (5 min, Kafka's
   * `max.poll.interval.ms`).
   */
  readonly livenessStallMs?: number;
}

/** What happens when the application shuts down (SIGTERM with `enableShutdownHooks()`). */
export interface StreamsShutdownOptions {
  /**
   * How long requests keep being answered after the shutdown began, before the client
   * commits, flushes, checkpoints and leaves the group; readiness answers 503 meanwhile.
   * Match it to the time your load balancer takes to stop sending requests (Kubernetes: the
   * endpoint removal, covered by a preStop sleep). Default 0.
   */
  readonly drainMs?: number;
}

/**
 * Options of `StreamsModule.forRoot()` / `forRootAsync()`: the engine's {@link StreamsConfig}
 * (`applicationId`, `bootstrapServers`, `applicationServer`, `stateDir`, ...) plus what the Nest
 * layer adds.
 *
 * Errors: a bad engine setting throws the engine's `StreamsConfigError` when the module
 * creates `KafkaStreams` (fix the setting it names); bad module settings throw
 * `StreamsModuleConfigError` at the same time.
 */
export interface StreamsModuleOptions extends StreamsConfig {
  /**
   * Lets every `@RouteByKey` route fall back to a standby copy when the owner is unreachable
   * (answers carry `X-Stale: true` and `X-Lag`). Default false: a route allows it itself with
   * `@RouteByKey(..., { allowStaleReads: true })`.
   */
  readonly allowStaleReads?: boolean;
  /** Timeout of a request forwarded to the key's owner, in ms; default 5000. */
  readonly forwardingTimeoutMs?: number;
  /**
   * Secret shared by every instance of the application (16 characters or more), keying the
   * HMAC that authenticates the hop header of forwarded requests (`X-Streams-Hop-Token`): a
   * hop header without a valid token is ignored, so a client cannot forge one to get a 503 or a
   * standby read. Default: a key derived from `applicationId`, which stops clients that do not
   * know the application id; set a real secret where clients might.
   */
  readonly forwardingSecret?: string;
  /** `Retry-After` (seconds) on 503 answers while rebalancing or restoring; default 2. */
  readonly retryAfterSeconds?: number;
  /** Instance-to-instance query transport; default off (`false`). */
  readonly remoteQueries?: RemoteQueryOptions | false;
  /** Prometheus metrics; `false` turns them off. Default on. */
  readonly metrics?: boolean | StreamsMetricsOptions;
  /** Start `KafkaStreams` on application bootstrap; default true. */
  readonly autoStart?: boolean;
  /** Where the engine logs; default Nest's `Logger` (context `KafkaStreams`). */
  readonly logger?: StateLogger;
  /** Also told about every changelog restore (the module tracks restores for health too). */
  readonly restoreListener?: StateRestoreListener;
  /** What an uncaught processing error does; default the engine's (shut the client down). */
  readonly uncaughtExceptionHandler?: StreamsUncaughtExceptionHandler;
  /** Probe semantics of the health indicator. */
  readonly health?: StreamsHealthOptions;
  /** Graceful shutdown. */
  readonly shutdown?: StreamsShutdownOptions;
}

/** Static options of the module definition (given to `forRoot` / `forRootAsync` alongside). */
export interface StreamsModuleExtras {
  /** Register the module globally; default true. */
  readonly isGlobal?: boolean;
  /**
   * Path of the Prometheus endpoint (a controller answering `GET /<path>`), or `false` for
   * none (read `StreamsMetricsService.registry` yourself). Default `metrics`.
   */
  readonly metricsPath?: string | false;
  /**
   * Register `StoreRoutingInterceptor` and `StreamsExceptionFilter` for every HTTP route
   * (`APP_INTERCEPTOR`, `APP_FILTER`); default true. With false, apply them yourself with
   * `@UseInterceptors` / `@UseFilters`.
   */
  readonly globalHttp?: boolean;
}
