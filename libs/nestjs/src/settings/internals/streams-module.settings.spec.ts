import { resolveStreamsConfig, StreamsConfigError } from '@nest-streams/streams';
import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import type { StreamsModuleOptions } from '../streams-module-options.interface';
import { StreamsModuleSettings } from './streams-module.settings';

const streams = { applicationId: 'settings-spec', bootstrapServers: ['127.0.0.1:9092'] };

const settingsOf = (options: Partial<StreamsModuleOptions> = {}): StreamsModuleSettings =>
  new StreamsModuleSettings({ streams, ...options });

const errorOf = (options: unknown): Error => {
  try {
    new StreamsModuleSettings(options as StreamsModuleOptions);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the options to be refused');
};

describe('StreamsModuleSettings (the options shape)', () => {
  it('applies every default', () => {
    const settings = settingsOf();
    expect(settings.http).toEqual({
      global: true,
      servedByHeader: false,
      retryAfterSeconds: 2,
      forwardingTimeoutMs: 5000,
    });
    expect(settings.metrics).toEqual({
      enabled: true,
      endpoint: undefined,
      prefix: 'kafka_streams_',
      defaultMetrics: false,
      registry: undefined,
    });
    expect(settings.health).toEqual({ readiness: 'available', livenessStallMs: 300_000 });
    expect(settings.client).toEqual({ start: 'background' });
    expect(settings.drainMs).toBe(0);
    expect(settings.allowStaleReads).toBe(false);
    expect(settings.remoteQueries).toBeUndefined();
    expect(settings.queryEndpoint).toBeUndefined();
    expect(settings.self).toBeUndefined();
    expect(settings.remoteQueryTimeoutMs).toBe(5000);
    expect(settings.dashboard).toEqual({
      enabled: false,
      path: 'streams/ui',
      sampleIntervalMs: 5000,
      historyMs: 600_000,
      lookup: false,
      lookupGuard: undefined,
    });
    expect(settings.management).toEqual({
      port: undefined,
      host: '127.0.0.1',
      metadataEndpoint: undefined,
    });
  });

  it('turns the cluster page on, at its path without surrounding slashes', () => {
    expect(settingsOf({ dashboard: true }).dashboard).toEqual({
      enabled: true,
      path: 'streams/ui',
      sampleIntervalMs: 5000,
      historyMs: 600_000,
      lookup: false,
      lookupGuard: undefined,
    });
    expect(
      settingsOf({
        dashboard: { path: '/ops/streams/', sampleIntervalMs: 1000, historyMs: 60_000 },
      }).dashboard,
    ).toEqual({
      enabled: true,
      path: 'ops/streams',
      sampleIntervalMs: 1000,
      historyMs: 60_000,
      lookup: false,
      lookupGuard: undefined,
    });
    expect(settingsOf({ dashboard: false }).dashboard.enabled).toBe(false);
  });

  it('turns the key look-up on, with or without a guard, and places the operator surfaces', () => {
    const guard = { canActivate: () => true };
    expect(settingsOf({ dashboard: { lookup: { guard } } }).dashboard).toMatchObject({
      lookup: true,
      lookupGuard: guard,
    });
    // On the management port the look-up needs no secret: the port is kept inside the cluster.
    expect(
      settingsOf({
        dashboard: { lookup: true },
        management: { port: 9090, host: '0.0.0.0', metadataEndpoint: '/streams/metadata' },
      }),
    ).toMatchObject({
      dashboard: { lookup: true, lookupGuard: undefined },
      management: { port: 9090, host: '0.0.0.0', metadataEndpoint: 'streams/metadata' },
    });
  });

  it("resolves the engine's settings once, with the engine's defaults", () => {
    const settings = settingsOf();
    expect(settings.streams).toMatchObject({
      applicationId: 'settings-spec',
      bootstrapServers: ['127.0.0.1:9092'],
      clientId: 'settings-spec',
      processingGuarantee: 'at_least_once',
      commitIntervalMs: 30_000,
      numStandbyReplicas: 0,
      statestoreCacheMaxBytes: 10_485_760,
    });
    // KafkaStreams takes the resolved config as it is: resolving it again returns the same object.
    expect(resolveStreamsConfig(settings.streams)).toBe(settings.streams);
  });

  it('passes the Kafka client choice through to the engine (@platformatic/kafka unless set)', () => {
    expect(settingsOf().streams).toMatchObject({
      kafkaClient: '@platformatic/kafka',
      rebalanceProtocol: 'cooperative',
    });
    const chosen = settingsOf({ streams: { ...streams, kafkaClient: 'kafkajs' } });
    expect(chosen.streams).toMatchObject({ kafkaClient: 'kafkajs', rebalanceProtocol: 'eager' });
  });

  it('refuses options without the `streams` key, naming it', () => {
    const error = errorOf({ applicationId: 'flat', bootstrapServers: ['127.0.0.1:9092'] });
    expect(error).toBeInstanceOf(StreamsModuleConfigError);
    expect(error.message).toBe(
      "StreamsModule options need the engine's settings under `streams` ({ streams: { applicationId, bootstrapServers, ... } })",
    );
  });

  it.each([
    [
      { applicationServer: 'no-port' },
      "application.server must be host:port (port 1-65535), got 'no-port'",
    ],
    [
      { applicationServer: 'host:70000' },
      "application.server must be host:port (port 1-65535), got 'host:70000'",
    ],
    [
      { applicationId: 'a b' },
      "application.id must be a non-empty string of letters, digits, '.', '_' and '-', got 'a b'",
    ],
    [{ commitIntervalMs: -1 }, 'commitIntervalMs must be a non-negative number, got -1'],
    [
      { kafkaClient: 'rdkafka' },
      "kafkaClient must be '@platformatic/kafka' or 'kafkajs', got 'rdkafka'",
    ],
  ])('refuses a bad engine setting %j with the engine’s error', (bad, message) => {
    const error = errorOf({ streams: { ...streams, ...bad } });
    expect(error).toBeInstanceOf(StreamsConfigError);
    expect(error.message).toBe(message);
  });

  it.each<[Partial<StreamsModuleOptions>, string]>([
    [
      { http: { retryAfterSeconds: -1 } },
      'http.retryAfterSeconds must be a non-negative integer, got -1',
    ],
    [
      { http: { forwardingTimeoutMs: 0 } },
      'http.forwardingTimeoutMs must be a positive number of ms, got 0',
    ],
    [
      { metrics: { endpoint: ' ' } },
      "metrics.endpoint must be a path (e.g. 'metrics') or false, got  ",
    ],
    [
      { health: { readiness: 'eager' as 'strict' } },
      "health.readiness must be 'available' or 'strict', got 'eager'",
    ],
    [
      { health: { livenessStallMs: -5 } },
      'health.livenessStallMs must be a positive number of ms, got -5',
    ],
    [{ shutdown: { drainMs: -1 } }, 'shutdown.drainMs must be a non-negative number of ms, got -1'],
    [
      { client: { start: 'soon' as 'manual' } },
      "client.start must be one of 'background', 'blocking', 'manual', got 'soon'",
    ],
    [
      { client: { exitOnStartFailure: 'yes' as unknown as boolean } },
      "client.exitOnStartFailure must be true or false, got 'yes'",
    ],
    [
      { security: { clusterSecret: 'short' } },
      'security.clusterSecret must be a string of 16 characters or more',
    ],
    [
      { queries: { remote: { port: 0 } } },
      'queries.remote.port must be a port number (1-65535) that the other instances can reach, got 0',
    ],
    [
      { queries: { remote: { transport: 'custom', server: {} as never, client: {} as never } } },
      'queries.remote with a custom transport needs an endpoint (or streams.applicationServer) naming this instance',
    ],
    [
      { dashboard: { path: 'ui/:id' } },
      `dashboard.path must be a plain path such as 'streams/ui' (letters, digits, '.', '_', '~', '-' between slashes), got "ui/:id"`,
    ],
    [
      { dashboard: { path: '/' } },
      `dashboard.path must be a plain path such as 'streams/ui' (letters, digits, '.', '_', '~', '-' between slashes), got "/"`,
    ],
    [
      { dashboard: { sampleIntervalMs: 0 } },
      'dashboard.sampleIntervalMs must be a positive number of ms, got 0',
    ],
    [
      { dashboard: { sampleIntervalMs: 5000, historyMs: 1000 } },
      'dashboard.historyMs (1000) must be at least dashboard.sampleIntervalMs (5000)',
    ],
  ])('refuses the module option %j, naming it', (bad, message) => {
    const error = errorOf({ streams, ...bad });
    expect(error).toBeInstanceOf(StreamsModuleConfigError);
    expect(error.message).toBe(message);
  });

  it("derives this instance's identity and query endpoint", () => {
    const security = { clusterSecret: 'settings-spec-cluster-secret' };
    const settings = settingsOf({
      security,
      streams: { ...streams, applicationServer: 'pod-0.orders:8080' },
      queries: { remote: { port: 18080, timeoutMs: 900 }, allowStaleReads: true },
    });
    expect(settings.self?.toString()).toBe('pod-0.orders:8080');
    expect(settings.servedBy).toBe('pod-0.orders:8080');
    expect(settings.queryEndpoint).toBe('pod-0.orders:18080');
    expect(settings.streams.queryEndpoint).toBe('pod-0.orders:18080');
    expect(settings.remoteQueryTimeoutMs).toBe(900);
    expect(settings.allowStaleReads).toBe(true);
    const advertised = settingsOf({
      security,
      streams: { ...streams, applicationServer: 'pod-0.orders:8080' },
      queries: { remote: { port: 18080, advertisedHost: '10.0.0.7' } },
    });
    expect(advertised.queryEndpoint).toBe('10.0.0.7:18080');
    expect(settingsOf({ security, queries: { remote: { port: 18080 } } }).queryEndpoint).toBe(
      '127.0.0.1:18080',
    );
    expect(settingsOf({ queries: { remote: false } }).queryEndpoint).toBeUndefined();
  });

  it('turns metrics and their endpoint on and off', () => {
    expect(settingsOf({ metrics: false }).metrics).toMatchObject({
      enabled: false,
      endpoint: undefined,
    });
    expect(settingsOf({ metrics: { endpoint: 'metrics' } }).metrics).toMatchObject({
      enabled: true,
      endpoint: 'metrics',
    });
    expect(settingsOf({ metrics: { endpoint: 'metrics', enabled: false } }).metrics).toMatchObject({
      enabled: false,
      endpoint: undefined,
    });
  });

  it('keys the HMAC between instances with the cluster secret, else with the application id', () => {
    const secret = 'a-secret-of-sixteen+';
    const keys = (options?: Parameters<typeof settingsOf>[0]) =>
      settingsOf(options).security.messageKeys;
    expect(keys({ security: { clusterSecret: secret } })).not.toEqual(keys());
    expect(keys({ security: { clusterSecret: secret } })).toEqual(
      keys({ security: { clusterSecret: secret } }),
    );
    expect(keys()).not.toEqual(keys({ streams: { ...streams, applicationId: 'other' } }));
  });
});
