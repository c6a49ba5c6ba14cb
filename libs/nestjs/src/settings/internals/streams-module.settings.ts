import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import { hostname } from 'node:os';
import { HostInfo, resolveStreamsConfig, type ResolvedStreamsConfig } from '@nest-streams/streams';
import type { Registry } from 'prom-client';
import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import { securitySettings, type SecuritySettings } from './security.settings';
import { STREAMS_MODULE_OPTIONS } from '../../streams.constants';
import type {
  RemoteQueryOptions,
  StreamsClientOptions,
  StreamsModuleOptions,
  StreamsStartMode,
  TcpRemoteQueryOptions,
} from '../streams-module-options.interface';

/** The resolved `http` options. */
export interface HttpSettings {
  readonly global: boolean;
  readonly servedByHeader: boolean;
  readonly retryAfterSeconds: number;
  readonly forwardingTimeoutMs: number;
}

/** The resolved `metrics` options. */
export interface MetricsSettings {
  readonly enabled: boolean;
  /** Path of the Prometheus endpoint, when one is served. */
  readonly endpoint: string | undefined;
  readonly prefix: string;
  readonly defaultMetrics: boolean;
  readonly registry?: Registry;
}

/** The limits of the TCP query server (`queries.remote`, TCP transport). */
export interface QueryServerLimits {
  readonly maxConnections: number;
  readonly authTimeoutMs: number;
  readonly maxRequestBytes: number;
}

/** The resolved `dashboard` options. */
export interface DashboardSettings {
  readonly enabled: boolean;
  /** The page's path, without leading or trailing slashes (`streams/ui`). */
  readonly path: string;
  readonly sampleIntervalMs: number;
  readonly historyMs: number;
  /** The key look-up: off, or on (guarded on the application's port by `lookupGuard`, else the cluster secret). */
  readonly lookup: boolean;
  /** The application's guard of the key look-up on the application's port, when given. */
  readonly lookupGuard: CanActivate | undefined;
}

/** The resolved `management` options. */
export interface ManagementSettings {
  /** Port of the management server; undefined: operator surfaces are routes of the app's port. */
  readonly port: number | undefined;
  readonly host: string;
  /** Path of the cluster's layout, without leading or trailing slashes, when served. */
  readonly metadataEndpoint: string | undefined;
}

/** The resolved `client` options. */
export interface ClientSettings extends Omit<StreamsClientOptions, 'start'> {
  readonly start: StreamsStartMode;
}

const START_MODES: readonly StreamsStartMode[] = ['background', 'blocking', 'manual'];

/**
 * The module options, each key resolved once with its defaults and checked, plus what follows
 * from them (this instance's identity, its query endpoint). The engine's settings (`streams`)
 * are resolved by the engine's own `resolveStreamsConfig`, once, here; `KafkaStreams` takes
 * the resolved config as it is.
 *
 * A new option key gets its interface in `streams-module-options.interface.ts` and its
 * resolution here, in one field initialised from one function.
 *
 * @throws StreamsConfigError for an invalid engine setting; StreamsModuleConfigError for an
 *   invalid module option (fix the option named; never retriable).
 */
@Injectable()
export class StreamsModuleSettings {
  /** The engine's settings, resolved (with the query endpoint when remote queries are on). */
  readonly streams: ResolvedStreamsConfig;
  readonly http: HttpSettings;
  readonly metrics: MetricsSettings;
  readonly health: { readonly readiness: 'available' | 'strict'; readonly livenessStallMs: number };
  readonly client: ClientSettings;
  readonly dashboard: DashboardSettings;
  readonly management: ManagementSettings;
  readonly allowStaleReads: boolean;
  readonly remoteQueries: RemoteQueryOptions | undefined;
  /** Milliseconds requests are still answered after shutdown began. */
  readonly drainMs: number;
  /** The cluster secret's keys, the replay window, TLS between the instances. */
  readonly security: SecuritySettings;
  /** Limits of the TCP query server. */
  readonly queryServerLimits: QueryServerLimits;
  /** This instance's advertised `application.server`, when set (multi-instance). */
  readonly self: HostInfo | undefined;
  /** This instance's name in answers (`X-Served-By`): `application.server`, else the host name. */
  readonly servedBy: string;
  /** This instance's query endpoint (`host:port` for TCP), when remote queries are on. */
  readonly queryEndpoint: string | undefined;

  constructor(@Inject(STREAMS_MODULE_OPTIONS) readonly options: StreamsModuleOptions) {
    if (!options || typeof options !== 'object' || !options.streams) {
      throw new StreamsModuleConfigError(
        "StreamsModule options need the engine's settings under `streams` ({ streams: { applicationId, bootstrapServers, ... } })",
      );
    }
    this.remoteQueries = options.queries?.remote === false ? undefined : options.queries?.remote;
    this.queryEndpoint = queryEndpointOf(this.remoteQueries, options.streams.applicationServer);
    // The engine's settings are checked here, once, by the engine (KafkaStreams takes the
    // resolved config as it is).
    this.streams = resolveStreamsConfig({ ...options.streams, queryEndpoint: this.queryEndpoint });
    this.self =
      this.streams.applicationServer === undefined
        ? undefined
        : HostInfo.parse(this.streams.applicationServer);
    this.servedBy = this.self?.toString() ?? hostname();
    this.http = httpSettings(options);
    this.metrics = metricsSettings(options);
    this.health = healthSettings(options);
    this.client = clientSettings(options);
    this.dashboard = dashboardSettings(options);
    this.management = managementSettings(options);
    this.drainMs = nonNegative(options.shutdown?.drainMs, 0, 'shutdown.drainMs');
    this.allowStaleReads = options.queries?.allowStaleReads === true;
    this.security = securitySettings(
      options.security,
      this.streams.applicationId,
      this.self !== undefined || this.remoteQueries !== undefined,
    );
    this.queryServerLimits = queryServerLimits(this.remoteQueries);
    const { lookup, lookupGuard } = this.dashboard;
    if (lookup && !lookupGuard && this.management.port === undefined && this.security.derivedKey) {
      throw new StreamsModuleConfigError(
        "dashboard.lookup is on and served on the application's HTTP port, where it answers only callers that send a cluster secret, but security.clusterSecret is not set: set it, give dashboard.lookup a guard ({ guard }), or serve the page on management.port",
      );
    }
  }

  /** Retry-After (seconds) of 503 answers. */
  get retryAfterSeconds(): number {
    return this.http.retryAfterSeconds;
  }

  /** Timeout of a request forwarded to the key's owner, in ms. */
  get forwardingTimeoutMs(): number {
    return this.http.forwardingTimeoutMs;
  }

  /** Per-query timeout of instance-to-instance queries, in ms. */
  get remoteQueryTimeoutMs(): number {
    return positive(
      this.remoteQueries?.timeoutMs,
      this.http.forwardingTimeoutMs,
      'queries.remote.timeoutMs',
    );
  }
}

/**
 * This instance's query endpoint: the custom transport's `endpoint`, else `applicationServer`;
 * for TCP `<advertisedHost or applicationServer's host>:<port>`. (`applicationServer` itself is
 * checked by the engine, which also checks the endpoint.)
 */
function queryEndpointOf(
  remote: RemoteQueryOptions | undefined,
  applicationServer: string | undefined,
): string | undefined {
  if (remote === undefined) return undefined;
  if (remote.transport === 'custom') {
    const endpoint = remote.endpoint ?? applicationServer;
    if (!endpoint) {
      throw new StreamsModuleConfigError(
        'queries.remote with a custom transport needs an endpoint (or streams.applicationServer) naming this instance',
      );
    }
    return endpoint;
  }
  if (!Number.isInteger(remote.port) || remote.port < 1 || remote.port > 65_535) {
    throw new StreamsModuleConfigError(
      `queries.remote.port must be a port number (1-65535) that the other instances can reach, got ${String(remote.port)}`,
    );
  }
  const serverHost = applicationServer?.slice(0, Math.max(0, applicationServer.lastIndexOf(':')));
  const host = remote.advertisedHost ?? (serverHost || '127.0.0.1');
  return `${host}:${remote.port}`;
}

function httpSettings(options: StreamsModuleOptions): HttpSettings {
  const http = options.http ?? {};
  const retryAfterSeconds = http.retryAfterSeconds ?? 2;
  if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
    throw new StreamsModuleConfigError(
      `http.retryAfterSeconds must be a non-negative integer, got ${String(http.retryAfterSeconds)}`,
    );
  }
  return {
    global: http.global !== false,
    servedByHeader: http.servedByHeader === true,
    retryAfterSeconds,
    forwardingTimeoutMs: positive(http.forwardingTimeoutMs, 5000, 'http.forwardingTimeoutMs'),
  };
}

function metricsSettings(options: StreamsModuleOptions): MetricsSettings {
  const metrics = typeof options.metrics === 'object' ? options.metrics : {};
  const enabled = options.metrics !== false && metrics.enabled !== false;
  const endpoint = metrics.endpoint ?? false;
  if (endpoint !== false && (typeof endpoint !== 'string' || endpoint.trim() === '')) {
    throw new StreamsModuleConfigError(
      `metrics.endpoint must be a path (e.g. 'metrics') or false, got ${String(endpoint)}`,
    );
  }
  return {
    enabled,
    endpoint: enabled && endpoint !== false ? endpoint : undefined,
    prefix: metrics.prefix ?? 'kafka_streams_',
    defaultMetrics: metrics.defaultMetrics === true,
    registry: metrics.registry,
  };
}

function healthSettings(options: StreamsModuleOptions): StreamsModuleSettings['health'] {
  const readiness = options.health?.readiness ?? 'available';
  if (readiness !== 'available' && readiness !== 'strict') {
    throw new StreamsModuleConfigError(
      `health.readiness must be 'available' or 'strict', got '${String(readiness)}'`,
    );
  }
  return {
    readiness,
    livenessStallMs: positive(options.health?.livenessStallMs, 300_000, 'health.livenessStallMs'),
  };
}

function clientSettings(options: StreamsModuleOptions): ClientSettings {
  const client = options.client ?? {};
  const start = client.start ?? 'background';
  if (!START_MODES.includes(start)) {
    throw new StreamsModuleConfigError(
      `client.start must be one of ${START_MODES.map((m) => `'${m}'`).join(', ')}, got '${String(start)}'`,
    );
  }
  const exit = client.exitOnStartFailure;
  if (exit !== undefined && typeof exit !== 'boolean') {
    throw new StreamsModuleConfigError(
      `client.exitOnStartFailure must be true or false, got '${String(exit)}'`,
    );
  }
  return { ...client, start };
}

function queryServerLimits(remote: RemoteQueryOptions | undefined): QueryServerLimits {
  const tcp: Partial<TcpRemoteQueryOptions> =
    remote === undefined || remote.transport === 'custom' ? {} : remote;
  const count = (value: number | undefined, fallback: number, name: string): number => {
    const result = value ?? fallback;
    if (!Number.isInteger(result) || result < 1) {
      throw new StreamsModuleConfigError(
        `${name} must be a positive integer, got ${String(value)}`,
      );
    }
    return result;
  };
  return {
    maxConnections: count(tcp.maxConnections, 256, 'queries.remote.maxConnections'),
    authTimeoutMs: positive(tcp.authTimeoutMs, 10_000, 'queries.remote.authTimeoutMs'),
    maxRequestBytes: count(tcp.maxRequestBytes, 1_048_576, 'queries.remote.maxRequestBytes'),
  };
}

function dashboardSettings(options: StreamsModuleOptions): DashboardSettings {
  const dashboard = typeof options.dashboard === 'object' ? options.dashboard : {};
  const enabled = options.dashboard === true || typeof options.dashboard === 'object';
  const path = plainPath(dashboard.path ?? 'streams/ui', 'dashboard.path', 'streams/ui');
  const lookup = dashboard.lookup ?? false;
  const lookupGuard = typeof lookup === 'object' && lookup !== null ? lookup.guard : undefined;
  if (
    typeof lookup !== 'boolean' &&
    typeof (lookupGuard as Partial<CanActivate> | undefined)?.canActivate !== 'function'
  ) {
    throw new StreamsModuleConfigError(
      'dashboard.lookup must be true, false or { guard } with an instance of a Nest guard (an object with canActivate)',
    );
  }
  const sampleIntervalMs = positive(dashboard.sampleIntervalMs, 5000, 'dashboard.sampleIntervalMs');
  const historyMs = positive(dashboard.historyMs, 600_000, 'dashboard.historyMs');
  if (historyMs < sampleIntervalMs) {
    throw new StreamsModuleConfigError(
      `dashboard.historyMs (${historyMs}) must be at least dashboard.sampleIntervalMs (${sampleIntervalMs})`,
    );
  }
  return { enabled, path, sampleIntervalMs, historyMs, lookup: lookup !== false, lookupGuard };
}

function managementSettings(options: StreamsModuleOptions): ManagementSettings {
  const management = options.management ?? {};
  const port = management.port;
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535)) {
    throw new StreamsModuleConfigError(
      `management.port must be a port number (1-65535), got ${String(port)}`,
    );
  }
  const host = management.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.trim() === '') {
    throw new StreamsModuleConfigError(
      `management.host must be an interface to bind (e.g. '0.0.0.0'), got ${String(host)}`,
    );
  }
  const endpoint = management.metadataEndpoint ?? false;
  return {
    port,
    host,
    metadataEndpoint:
      endpoint === false
        ? undefined
        : plainPath(endpoint, 'management.metadataEndpoint', 'streams/metadata'),
  };
}

/**
 * `value` without leading or trailing slashes, when it is a plain path.
 *
 * @throws StreamsModuleConfigError naming the option otherwise.
 */
function plainPath(value: unknown, name: string, example: string): string {
  const trimmed = typeof value === 'string' ? value.replace(/^\/+|\/+$/g, '') : '';
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(trimmed)) {
    throw new StreamsModuleConfigError(
      `${name} must be a plain path such as '${example}' (letters, digits, '.', '_', '~', '-' between slashes), got ${JSON.stringify(value)}`,
    );
  }
  return trimmed;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result <= 0) {
    throw new StreamsModuleConfigError(
      `${name} must be a positive number of ms, got ${String(value)}`,
    );
  }
  return result;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result < 0) {
    throw new StreamsModuleConfigError(
      `${name} must be a non-negative number of ms, got ${String(value)}`,
    );
  }
  return result;
}
