import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { HostInfo, type StreamsConfig } from '@nest-streams/streams';
import type { Registry } from 'prom-client';
import { StreamsModuleConfigError } from '../errors/streams-module-config.error';
import { STREAMS_MODULE_OPTIONS } from './streams.constants';
import type { RemoteQueryOptions, StreamsModuleOptions } from '../streams-module-options.interface';

/** Option names of the module itself, removed before the rest goes to the engine. */
const MODULE_KEYS = [
  'allowStaleReads',
  'forwardingTimeoutMs',
  'forwardingSecret',
  'retryAfterSeconds',
  'remoteQueries',
  'metrics',
  'autoStart',
  'logger',
  'restoreListener',
  'uncaughtExceptionHandler',
  'health',
  'shutdown',
] as const satisfies readonly (keyof StreamsModuleOptions)[];

/** The engine's configuration plus this instance's query endpoint (carried in the assignment). */
export type EngineConfig = StreamsConfig & { readonly queryEndpoint?: string };

/**
 * The module options with defaults applied and checked once, plus what follows from them
 * (this instance's identity, its query endpoint, the engine's part of the options).
 *
 * @throws StreamsModuleConfigError for an invalid module option (fix the option named).
 */
@Injectable()
export class StreamsModuleSettings {
  readonly allowStaleReads: boolean;
  readonly forwardingTimeoutMs: number;
  readonly retryAfterSeconds: number;
  /** Key of the hop header's HMAC: `forwardingSecret`, else derived from `applicationId`. */
  readonly hopKey: Buffer;
  readonly autoStart: boolean;
  /** This instance's advertised `application.server`, when set (multi-instance). */
  readonly self: HostInfo | undefined;
  /** What `X-Served-By` says: `application.server`, else the host name. */
  readonly servedBy: string;
  readonly remoteQueries: RemoteQueryOptions | undefined;
  /** This instance's query endpoint (`host:port` for TCP), when remote queries are on. */
  readonly queryEndpoint: string | undefined;
  readonly health: { readonly readiness: 'available' | 'strict'; readonly livenessStallMs: number };
  /** Milliseconds requests are still answered after shutdown began. */
  readonly drainMs: number;
  readonly metrics: {
    readonly enabled: boolean;
    readonly prefix: string;
    readonly defaultMetrics: boolean;
    readonly registry?: Registry;
  };

  constructor(@Inject(STREAMS_MODULE_OPTIONS) readonly options: StreamsModuleOptions) {
    this.allowStaleReads = options.allowStaleReads === true;
    this.forwardingTimeoutMs = positive(options.forwardingTimeoutMs, 5000, 'forwardingTimeoutMs');
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
    if (!Number.isInteger(this.retryAfterSeconds) || this.retryAfterSeconds < 0) {
      throw new StreamsModuleConfigError(
        `retryAfterSeconds must be a non-negative integer, got ${String(options.retryAfterSeconds)}`,
      );
    }
    this.hopKey = hopKeyOf(options);
    const readiness = options.health?.readiness ?? 'available';
    if (readiness !== 'available' && readiness !== 'strict') {
      throw new StreamsModuleConfigError(
        `health.readiness must be 'available' or 'strict', got '${String(readiness)}'`,
      );
    }
    this.health = {
      readiness,
      livenessStallMs: positive(options.health?.livenessStallMs, 300_000, 'health.livenessStallMs'),
    };
    this.drainMs = options.shutdown?.drainMs ?? 0;
    if (!Number.isFinite(this.drainMs) || this.drainMs < 0) {
      throw new StreamsModuleConfigError(
        `shutdown.drainMs must be a non-negative number of ms, got ${String(options.shutdown?.drainMs)}`,
      );
    }
    this.autoStart = options.autoStart !== false;
    try {
      this.self =
        options.applicationServer === undefined
          ? undefined
          : HostInfo.parse(options.applicationServer);
    } catch (error) {
      throw new StreamsModuleConfigError(
        `applicationServer must be host:port, got '${options.applicationServer}'`,
        { cause: error },
      );
    }
    this.servedBy = this.self?.toString() ?? hostname();
    this.remoteQueries = options.remoteQueries === false ? undefined : options.remoteQueries;
    this.queryEndpoint = this.endpointOf(this.remoteQueries);
    const metrics = typeof options.metrics === 'object' ? options.metrics : {};
    this.metrics = {
      enabled: options.metrics !== false && metrics.enabled !== false,
      prefix: metrics.prefix ?? 'kafka_streams_',
      defaultMetrics: metrics.defaultMetrics === true,
      registry: metrics.registry,
    };
  }

  /** Per-query timeout of instance-to-instance queries, in ms. */
  get remoteQueryTimeoutMs(): number {
    return positive(
      this.remoteQueries?.timeoutMs,
      this.forwardingTimeoutMs,
      'remoteQueries.timeoutMs',
    );
  }

  /** The options the engine takes (`StreamsConfig`), with the query endpoint. */
  engineConfig(): EngineConfig {
    const config: Record<string, unknown> = { ...this.options };
    for (const key of MODULE_KEYS) delete config[key];
    if (this.queryEndpoint !== undefined) config.queryEndpoint = this.queryEndpoint;
    return config as unknown as EngineConfig;
  }

  private endpointOf(remote: RemoteQueryOptions | undefined): string | undefined {
    if (remote === undefined) return undefined;
    if (remote.transport === 'custom') {
      const endpoint = remote.endpoint ?? this.options.applicationServer;
      if (!endpoint) {
        throw new StreamsModuleConfigError(
          'remoteQueries with a custom transport needs an endpoint (or applicationServer) naming this instance',
        );
      }
      return endpoint;
    }
    if (!Number.isInteger(remote.port) || remote.port < 1 || remote.port > 65_535) {
      throw new StreamsModuleConfigError(
        `remoteQueries.port must be a port number (1-65535) that the other instances can reach, got ${String(remote.port)}`,
      );
    }
    const host = remote.advertisedHost ?? this.self?.host ?? '127.0.0.1';
    return `${host}:${remote.port}`;
  }
}

function hopKeyOf(options: StreamsModuleOptions): Buffer {
  const secret = options.forwardingSecret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < 16)) {
    throw new StreamsModuleConfigError(
      'forwardingSecret must be a string of 16 characters or more',
    );
  }
  return createHash('sha256')
    .update(secret ?? `nest-streams hop key of application '${String(options.applicationId)}'`)
    .digest();
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
