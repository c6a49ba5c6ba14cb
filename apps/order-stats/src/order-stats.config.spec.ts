import { orderStatsConfig } from './order-stats.config';

describe('orderStatsConfig', () => {
  it('reads the forwarding timeout, 5 s by default', () => {
    expect(orderStatsConfig({}).forwardingTimeoutMs).toBe(5000);
    expect(orderStatsConfig({ FORWARDING_TIMEOUT_MS: '20000' }).forwardingTimeoutMs).toBe(20_000);
    expect(() => orderStatsConfig({ FORWARDING_TIMEOUT_MS: 'soon' })).toThrow(
      /FORWARDING_TIMEOUT_MS must be a non-negative integer/,
    );
  });

  it('reads the forwarding secret, unset by default, and a comma list during a rotation', () => {
    expect(orderStatsConfig({}).forwardingSecrets).toEqual([]);
    expect(orderStatsConfig({ FORWARDING_SECRET: '' }).forwardingSecrets).toEqual([]);
    expect(
      orderStatsConfig({ FORWARDING_SECRET: 'a-long-shared-secret' }).forwardingSecrets,
    ).toEqual(['a-long-shared-secret']);
    expect(
      orderStatsConfig({ FORWARDING_SECRET: 'the-new-shared-secret, the-old-shared-secret' })
        .forwardingSecrets,
    ).toEqual(['the-new-shared-secret', 'the-old-shared-secret']);
  });

  it('reads the key look-up switch, off by default', () => {
    expect(orderStatsConfig({}).dashboardLookup).toBe(false);
    expect(orderStatsConfig({ DASHBOARD_LOOKUP: 'true' }).dashboardLookup).toBe(true);
    expect(() => orderStatsConfig({ DASHBOARD_LOOKUP: 'yes' })).toThrow(
      "DASHBOARD_LOOKUP must be true or false, got 'yes'",
    );
  });

  it('reads the management port, unset by default (metrics, metadata and the page on PORT)', () => {
    expect(orderStatsConfig({}).managementPort).toBeUndefined();
    expect(orderStatsConfig({ MANAGEMENT_PORT: '9090' }).managementPort).toBe(9090);
    expect(() => orderStatsConfig({ MANAGEMENT_PORT: 'x' })).toThrow(
      "MANAGEMENT_PORT must be a non-negative integer, got 'x'",
    );
  });

  it('reads the HTTP platform, express by default', () => {
    expect(orderStatsConfig({}).httpPlatform).toBe('express');
    expect(orderStatsConfig({ HTTP_PLATFORM: '' }).httpPlatform).toBe('express');
    expect(orderStatsConfig({ HTTP_PLATFORM: 'fastify' }).httpPlatform).toBe('fastify');
    expect(() => orderStatsConfig({ HTTP_PLATFORM: 'koa' })).toThrow(
      "HTTP_PLATFORM must be express or fastify, got 'koa'",
    );
  });

  it('reads the Kafka client, @platformatic/kafka by default', () => {
    expect(orderStatsConfig({}).kafkaClient).toBe('@platformatic/kafka');
    expect(orderStatsConfig({ KAFKA_CLIENT: '' }).kafkaClient).toBe('@platformatic/kafka');
    expect(orderStatsConfig({ KAFKA_CLIENT: 'kafkajs' }).kafkaClient).toBe('kafkajs');
    expect(orderStatsConfig({ KAFKA_CLIENT: '@platformatic/kafka' }).kafkaClient).toBe(
      '@platformatic/kafka',
    );
    expect(() => orderStatsConfig({ KAFKA_CLIENT: 'rdkafka' })).toThrow(
      "KAFKA_CLIENT must be one of @platformatic/kafka, kafkajs, got 'rdkafka'",
    );
  });

  it("reads the rebalance protocol, the engine's default when unset", () => {
    expect(orderStatsConfig({}).rebalanceProtocol).toBeUndefined();
    expect(orderStatsConfig({ REBALANCE_PROTOCOL: '' }).rebalanceProtocol).toBeUndefined();
    expect(orderStatsConfig({ REBALANCE_PROTOCOL: 'eager' }).rebalanceProtocol).toBe('eager');
    expect(orderStatsConfig({ REBALANCE_PROTOCOL: 'cooperative' }).rebalanceProtocol).toBe(
      'cooperative',
    );
    expect(() => orderStatsConfig({ REBALANCE_PROTOCOL: 'sticky' })).toThrow(
      "REBALANCE_PROTOCOL must be cooperative or eager, got 'sticky'",
    );
  });

  it('reads the static group instance id, with @platformatic/kafka only', () => {
    expect(orderStatsConfig({}).groupInstanceId).toBeUndefined();
    expect(orderStatsConfig({ GROUP_INSTANCE_ID: 'order-stats-1' })).toMatchObject({
      kafkaClient: '@platformatic/kafka',
      groupInstanceId: 'order-stats-1',
    });
    const platformatic = { KAFKA_CLIENT: '@platformatic/kafka' };
    expect(orderStatsConfig({ ...platformatic, GROUP_INSTANCE_ID: '' }).groupInstanceId).toBe(
      undefined,
    );
    expect(
      orderStatsConfig({ ...platformatic, GROUP_INSTANCE_ID: 'order-stats-2' }).groupInstanceId,
    ).toBe('order-stats-2');
    expect(() =>
      orderStatsConfig({ KAFKA_CLIENT: 'kafkajs', GROUP_INSTANCE_ID: 'order-stats-2' }),
    ).toThrow(
      "GROUP_INSTANCE_ID needs KAFKA_CLIENT=@platformatic/kafka (kafkajs has no static membership), got KAFKA_CLIENT 'kafkajs'",
    );
  });

  it("reads how long a start waits, the engine's task.timeout.ms by default", () => {
    expect(orderStatsConfig({}).taskTimeoutMs).toBeUndefined();
    expect(orderStatsConfig({ TASK_TIMEOUT_MS: '5000' }).taskTimeoutMs).toBe(5_000);
    expect(() => orderStatsConfig({ TASK_TIMEOUT_MS: '-1' })).toThrow(
      "TASK_TIMEOUT_MS must be a non-negative integer, got '-1'",
    );
  });

  it("reads Kafka Streams' metrics recording level, INFO by default", () => {
    expect(orderStatsConfig({}).metricsRecordingLevel).toBe('INFO');
    expect(orderStatsConfig({ METRICS_RECORDING_LEVEL: 'DEBUG' }).metricsRecordingLevel).toBe(
      'DEBUG',
    );
    expect(() => orderStatsConfig({ METRICS_RECORDING_LEVEL: 'debug' })).toThrow(
      "METRICS_RECORDING_LEVEL must be INFO, DEBUG or TRACE, got 'debug'",
    );
  });

  it('reads the session timeout, 10 s by default', () => {
    expect(orderStatsConfig({}).sessionTimeoutMs).toBe(10_000);
    expect(orderStatsConfig({ SESSION_TIMEOUT_MS: '30000' }).sessionTimeoutMs).toBe(30_000);
    expect(() => orderStatsConfig({ SESSION_TIMEOUT_MS: 'soon' })).toThrow(
      "SESSION_TIMEOUT_MS must be a non-negative integer, got 'soon'",
    );
  });

  it('reads the group protocol, classic by default', () => {
    expect(orderStatsConfig({}).groupProtocol).toBe('classic');
    expect(orderStatsConfig({ GROUP_PROTOCOL: '' }).groupProtocol).toBe('classic');
    expect(orderStatsConfig({ GROUP_PROTOCOL: 'streams' }).groupProtocol).toBe('streams');
    // Under streams the group's config decides the standbys: the client asks for none.
    expect(orderStatsConfig({ NUM_STANDBY_REPLICAS: '1' }).numStandbyReplicas).toBe(1);
    expect(
      orderStatsConfig({ GROUP_PROTOCOL: 'streams', NUM_STANDBY_REPLICAS: '1' }).numStandbyReplicas,
    ).toBe(0);
    expect(() => orderStatsConfig({ GROUP_PROTOCOL: 'consumer' })).toThrow(
      "GROUP_PROTOCOL must be classic or streams, got 'consumer'",
    );
  });

  it('reads the RocksDB memory budget, 256 MiB by default', () => {
    expect(orderStatsConfig({}).rocksdbMemoryMb).toBe(256);
    expect(orderStatsConfig({ ROCKSDB_MEMORY_MB: '1024' }).rocksdbMemoryMb).toBe(1024);
    expect(() => orderStatsConfig({ ROCKSDB_MEMORY_MB: '8' })).toThrow(
      "ROCKSDB_MEMORY_MB must be at least 16, got '8'",
    );
    expect(() => orderStatsConfig({ ROCKSDB_MEMORY_MB: 'lots' })).toThrow(
      /ROCKSDB_MEMORY_MB must be a non-negative integer/,
    );
  });

  it('keeps its defaults', () => {
    const config = orderStatsConfig({ PORT: '8081' });
    expect(config).toMatchObject({
      port: 8081,
      applicationServer: '127.0.0.1:8081',
      queryPort: 18_081,
      allowStaleReads: true,
      numStandbyReplicas: 0,
    });
  });
});
