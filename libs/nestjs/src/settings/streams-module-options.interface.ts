import type { CanActivate } from '@nestjs/common';
import type { ClientOptions, Server } from '@nestjs/microservices';
import type {
  StateRestoreListener,
  StreamsConfig,
  StreamsUncaughtExceptionHandler,
} from '@nest-streams/streams';
import type { Registry } from 'prom-client';

/**
 * Instance-to-instance queries over a @nestjs/microservices TCP server (the default). Every
 * instance listens on `port`; its `advertisedHost:port` travels to the others in the
 * assignment (`StreamsMetadata.queryEndpoint`). The port answers only members of the
 * application (see `security`); the limits below bound what anyone else can make it hold.
 */
export interface TcpRemoteQueryOptions {
  readonly transport?: 'tcp';
  /** Port of this instance's query server. Required: peers must know it before the group forms. */
  readonly port: number;
  /** Interface to bind; default the host of `streams.applicationServer`, else `127.0.0.1`. */
  readonly host?: string;
  /** Host the other instances use to reach this one; default the host of `applicationServer`. */
  readonly advertisedHost?: string;
  /** Per-query timeout in ms; default `http.forwardingTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Most connections the query port holds at once (more are closed as they arrive); default
   * 256. Each instance keeps one connection to each other instance.
   */
  readonly maxConnections?: number;
  /**
   * A connection that has not sent one authenticated query this long after it opened (or that
   * stops in the middle of a message) is closed, in ms; default 10000.
   */
  readonly authTimeoutMs?: number;
  /**
   * Largest request a connection may send before it is authenticated, and largest single
   * message, in bytes (characters of the JSON frame); default 1048576 (1 MiB). Queries are small.
   */
  readonly maxRequestBytes?: number;
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
  /** This instance's unique query address; default `streams.applicationServer`. */
  readonly endpoint?: string;
  /** Per-query timeout in ms; default `http.forwardingTimeoutMs`. */
  readonly timeoutMs?: number;
}

/** How instances query each other (`queries.remote`). */
export type RemoteQueryOptions = TcpRemoteQueryOptions | CustomRemoteQueryOptions;

/**
 * The engine's settings as the module takes them: Kafka Streams' configuration
 * ({@link StreamsConfig}: `applicationId`, `bootstrapServers`, `applicationServer`, `stateDir`,
 * `processingGuarantee`, `kafka`, ...). The query endpoint is not among them: the module
 * derives it from `queries.remote`.
 */
export type StreamsEngineOptions = Omit<StreamsConfig, 'queryEndpoint'>;

/** The HTTP side of the module: key routing (`@RouteByKey`) and error answers. */
export interface StreamsHttpOptions {
  /**
   * Route `@RouteByKey` handlers (each routes its own requests: no interceptor on any route),
   * record every request's store reads (an answer a standby copy served is marked `X-Stale` and
   * `X-Lag`) and register `StreamsExceptionFilter` for every route (`APP_FILTER`); default
   * true. With false, apply `StoreRoutingInterceptor` and `StreamsExceptionFilter` yourself
   * with `@UseInterceptors` / `@UseFilters` where you want them.
   */
  readonly global?: boolean;
  /**
   * Add `X-Served-By: <this instance>` to every HTTP answer of the application (also 404s and
   * parser errors), so callers and tests see which instance answered; default false.
   */
  readonly servedByHeader?: boolean;
  /** `Retry-After` (seconds) on 503 answers while rebalancing or restoring; default 2. */
  readonly retryAfterSeconds?: number;
  /** Timeout of a request forwarded to the key's owner, in ms; default 5000. */
  readonly forwardingTimeoutMs?: number;
}

/** Interactive queries: standby reads and how instances reach each other. */
export interface StreamsQueriesOptions {
  /**
   * Lets every `@RouteByKey` route and `InteractiveQueryService` read fall back to a standby
   * copy when the owner is unreachable (answers carry `X-Stale: true` and `X-Lag`). Default
   * false: a route allows it itself with `@RouteByKey(..., { allowStaleReads: true })`.
   */
  readonly allowStaleReads?: boolean;
  /** Instance-to-instance query transport; default off (`false`: a single instance). */
  readonly remote?: RemoteQueryOptions | false;
}

/** Prometheus metrics of the module (prom-client). */
export interface StreamsMetricsOptions {
  /** Collect metrics; default true. */
  readonly enabled?: boolean;
  /**
   * Path of the Prometheus endpoint (`GET /<endpoint>`, e.g. `'metrics'`); default none (`false`):
   * read `StreamsMetricsService.metrics()` yourself, or set a path.
   */
  readonly endpoint?: string | false;
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
 * How the module starts `KafkaStreams`:
 * - `background` (default): on application bootstrap, without waiting: `app.listen()` serves
 *   HTTP (liveness, and readiness = 503 with details) while the client connects, joins the
 *   group and restores. A start error is logged and moves the client to ERROR; the process
 *   then exits with code 1 (`client.exitOnStartFailure`).
 * - `blocking`: bootstrap waits for `KafkaStreams.start()` (the group joined), so a start error
 *   fails `app.init()` / `app.listen()`; for scripts and tests.
 * - `manual`: the module never starts it; call `KafkaStreams.start()` yourself.
 */
export type StreamsStartMode = 'background' | 'blocking' | 'manual';

/** What the module does with the `KafkaStreams` client it creates. */
export interface StreamsClientOptions {
  /** When the client starts; default `background`. */
  readonly start?: StreamsStartMode;
  /** Also told about every changelog restore (the module tracks restores for health too). */
  readonly restoreListener?: StateRestoreListener;
  /** What an uncaught processing error does; default the engine's (shut the client down). */
  readonly uncaughtExceptionHandler?: StreamsUncaughtExceptionHandler;
  /**
   * With `start: 'background'`, end the process with exit code 1 when the client could not
   * start (state ERROR before it ever ran): at once for refused credentials, after
   * `streams.taskTimeoutMs` (the engine's wait) for a state directory another process holds,
   * unreachable brokers or a missing source topic. Readiness reports the cause meanwhile, and
   * the engine logs it once with what to do. A supervisor (Kubernetes, systemd) restarts the
   * process; `false` keeps it running with liveness down instead. Default true.
   */
  readonly exitOnStartFailure?: boolean;
}

/**
 * TLS between the instances (`security.tls`): the instance-to-instance query port (mutual TLS:
 * both sides show a certificate signed by `ca`) and forwarded HTTP requests (HTTPS to the key's
 * owner, whose certificate must be signed by `ca`; serve the application's HTTP over TLS with the
 * same certificate: `NestFactory.create(AppModule, { httpsOptions: { key, cert } })`).
 * Certificates must name the host each instance advertises (`application.server`, the query
 * endpoint): a DNS or IP subject alternative name.
 */
export interface StreamsTlsOptions {
  /** This instance's certificate chain (PEM), shown as server and as client. */
  readonly cert: string | Buffer;
  /** The private key of `cert` (PEM). */
  readonly key: string | Buffer;
  /** Passphrase of `key`, when it is encrypted. */
  readonly passphrase?: string;
  /**
   * The CA certificate(s) (PEM) that signed every instance's certificate: the only ones the
   * query port and the forwarder trust.
   */
  readonly ca: string | Buffer | readonly (string | Buffer)[];
}

/** What authenticates the instances to each other, and what encrypts their traffic. */
export interface StreamsSecurityOptions {
  /**
   * Secret shared by every instance of the application (16 characters or more; 32 random
   * bytes, base64, is a good choice). It keys the HMAC of every message between instances:
   * instance-to-instance queries (a query without a valid one is refused before any store is
   * read) and the hop token of forwarded requests (`X-Streams-Hop-Token`: a hop without a
   * valid one gets no hop privilege). Required as soon as the instance works with others
   * (`streams.applicationServer` or `queries.remote` set): without it the module refuses to
   * start, unless `insecure`.
   *
   * A list rotates it without downtime: the first secret signs, any of them verifies. Roll
   * `[old, new]` out to every instance, then `[new, old]`, then `[new]`.
   */
  readonly clusterSecret?: string | readonly string[];
  /**
   * Local development only: lets an instance that works with others start without
   * `clusterSecret`, keying the HMACs with a key derived from `streams.applicationId`, which
   * anyone who knows the application id can compute (so can read every store). Default false.
   */
  readonly insecure?: boolean;
  /**
   * How far a message's timestamp (a query's, a hop token's) may be from the receiver's clock,
   * in ms (the replay window: a message is accepted once, and only within it); default 30000.
   * Keep the instances' clocks synchronised (NTP) well within it.
   */
  readonly replayWindowMs?: number;
  /** TLS between the instances; default off (the HMACs authenticate, nothing is encrypted). */
  readonly tls?: StreamsTlsOptions;
}

/**
 * The cluster page (`dashboard`): one self-contained page (no CDN, nothing loaded from
 * elsewhere) showing the topology as a graph, every instance with its tasks (active, standby,
 * warm-up) per store and partition, standby lags, restore progress, client state and last
 * rebalance, live figures (processed records/s, commit latency, cache hit ratio, input lag per
 * partition, query rate and 503s) over the last minutes, and, when `lookup` is on, a key
 * look-up across its copies. Each instance reports itself over the instance-to-instance query
 * transport (`queries.remote`). With `management.port` the page and its data are served there
 * only; on the application's port, guard them as the rest of the application (a global guard
 * applies to them).
 */
export interface StreamsDashboardOptions {
  /** Path of the page (its data is under `<path>/api/`); default `streams/ui`. */
  readonly path?: string;
  /** How often each instance samples its live figures, in ms; default 5000. */
  readonly sampleIntervalMs?: number;
  /** How far back the live figures go (and how long a departed instance stays listed), in ms; default 600000. */
  readonly historyMs?: number;
  /**
   * The key look-up (`GET <path>/api/lookup?store=&key=`): what every copy of a key holds, in
   * any store of the topology. Default off (it answers 404). `true` turns it on: on the
   * management port (`management.port`) it is open to whoever reaches that port; on the
   * application's HTTP port it answers only requests with `Authorization: Bearer <a cluster
   * secret>` (401 otherwise; use HTTPS). `{ guard }` turns it on with your Nest guard instead
   * of the cluster secret on the application's port (an instance: `new MyGuard(...)`).
   */
  readonly lookup?: boolean | { readonly guard: CanActivate };
}

/**
 * Where the operator surfaces are served: the Prometheus endpoint (`metrics.endpoint`), the
 * cluster page and its API (`dashboard`), and the cluster's layout (`metadataEndpoint`).
 */
export interface StreamsManagementOptions {
  /**
   * Port of the management server (plain HTTP): when set, every operator surface is served
   * there and none on the application's HTTP port, so that a network policy can keep it
   * inside the cluster. Default none: they are routes of the application's HTTP server.
   */
  readonly port?: number;
  /** Interface the management server binds; default `127.0.0.1` (`0.0.0.0` in a pod). */
  readonly host?: string;
  /**
   * Path of the cluster's layout (`GET /<path>`: every instance with its active and standby
   * partitions per store, this instance's lags per store partition, its processing counters),
   * e.g. `'streams/metadata'`; default none (`false`).
   */
  readonly metadataEndpoint?: string | false;
}

/**
 * Options of `StreamsModule.forRoot()` (and what the `forRootAsync()` factory returns): the
 * engine's settings under `streams`, and one key per part of the module.
 *
 * @example
 * StreamsModule.forRoot({
 *   streams: { applicationId: 'orders', bootstrapServers: ['kafka:9092'], applicationServer: 'pod-0.orders:8080' },
 *   http: { servedByHeader: true },
 *   queries: { remote: { port: 18080 } },
 *   metrics: { endpoint: 'metrics' },
 * })
 *
 * Errors: every option is checked once, when the module creates its settings (before any
 * provider uses them): a bad engine setting throws the engine's `StreamsConfigError`, a bad
 * module setting `StreamsModuleConfigError`; both name the option: fix it (never retriable).
 */
export interface StreamsModuleOptions {
  /** Kafka Streams' settings: `application.id`, `bootstrap.servers`, `state.dir`, ... */
  readonly streams: StreamsEngineOptions;
  /** Key routing and error answers over HTTP. */
  readonly http?: StreamsHttpOptions;
  /** Interactive queries: standby reads, instance-to-instance transport. */
  readonly queries?: StreamsQueriesOptions;
  /** Prometheus metrics; `false` turns them off. Default on, without an endpoint. */
  readonly metrics?: boolean | StreamsMetricsOptions;
  /** Probe semantics of the health indicator. */
  readonly health?: StreamsHealthOptions;
  /** Graceful shutdown. */
  readonly shutdown?: StreamsShutdownOptions;
  /** Start mode and the client's listeners. */
  readonly client?: StreamsClientOptions;
  /** The cluster secret, TLS between the instances. */
  readonly security?: StreamsSecurityOptions;
  /** The cluster page; default off (`true`: on, at `streams/ui`, without the key look-up). */
  readonly dashboard?: boolean | StreamsDashboardOptions;
  /** Where metrics, the cluster page and the cluster's layout are served; default the app's port. */
  readonly management?: StreamsManagementOptions;
}

/** Static options of the module definition (given to `forRoot` / `forRootAsync` alongside). */
export interface StreamsModuleExtras {
  /** Register the module globally; default true. */
  readonly isGlobal?: boolean;
}
