import { StreamsConfigError } from '../errors/streams-config.error';
import {
  type GroupProtocol,
  type KafkaClientName,
  type RebalanceProtocol,
  resolveStreamsConfig,
  type StreamsConfig,
} from './streams-config';
import { streamsConfigFromProperties } from './streams-config-properties';

const base = { applicationId: 'config-spec', bootstrapServers: ['127.0.0.1:9092'] };
const kafkajs = { ...base, kafkaClient: 'kafkajs' as const };

/** Expects `config` refused with a StreamsConfigError saying `message`. */
const refuses = (config: StreamsConfig, message: string): void =>
  expect(() => resolveStreamsConfig(config)).toThrow(new StreamsConfigError(message));

describe('resolveStreamsConfig', () => {
  it("applies Kafka Streams' defaults", () => {
    const resolved = resolveStreamsConfig(base);
    expect(resolved).toMatchObject({
      clientId: 'config-spec',
      processingGuarantee: 'at_least_once',
      commitIntervalMs: 30_000,
      numStandbyReplicas: 0,
      statestoreCacheMaxBytes: 10_485_760,
      acceptableRecoveryLag: 10_000,
      maxWarmupReplicas: 2,
      taskTimeoutMs: 300_000,
      checkCrcs: true,
      maxPartitionFetchBytes: 1_048_576,
      kafkaClient: '@platformatic/kafka',
      rebalanceProtocol: 'cooperative',
      groupProtocol: 'classic',
    });
    expect(resolveStreamsConfig({ ...base, processingGuarantee: 'exactly_once_v2' })).toMatchObject(
      { commitIntervalMs: 100 },
    );
  });

  it('returns a config it resolved as it is, without checking it again', () => {
    const resolved = resolveStreamsConfig(base);
    expect(resolveStreamsConfig(resolved)).toBe(resolved);
    // A copy is a new config: resolved (and checked) again.
    const copy = { ...resolved };
    expect(resolveStreamsConfig(copy)).not.toBe(copy);
  });

  it.each([
    ['pod-0.orders:8080', undefined],
    ['127.0.0.1:65535', undefined],
    ['no-port', "application.server must be host:port (port 1-65535), got 'no-port'"],
    ['host:0', "application.server must be host:port (port 1-65535), got 'host:0'"],
    ['host:65536', "application.server must be host:port (port 1-65535), got 'host:65536'"],
    ['http://host:80', "application.server must be host:port (port 1-65535), got 'http://host:80'"],
  ])('checks application.server %s', (applicationServer, message) => {
    const resolve = () => resolveStreamsConfig({ ...base, applicationServer });
    if (message === undefined) expect(resolve().applicationServer).toBe(applicationServer);
    else expect(resolve).toThrow(new StreamsConfigError(message));
  });

  it('takes check.crcs as a boolean, and its property as true or false', () => {
    expect(resolveStreamsConfig({ ...base, checkCrcs: false }).checkCrcs).toBe(false);
    refuses(
      { ...base, checkCrcs: 'no' as unknown as boolean },
      'checkCrcs must be true or false, got no',
    );
    expect(streamsConfigFromProperties({ 'check.crcs': 'false' }).checkCrcs).toBe(false);
    expect(streamsConfigFromProperties({ 'check.crcs': ' TRUE ' }).checkCrcs).toBe(true);
    expect(() => streamsConfigFromProperties({ 'check.crcs': 'off' })).toThrow(
      new StreamsConfigError("check.crcs must be true or false, got 'off'"),
    );
  });

  it("takes Kafka's retry and timeout settings, with Kafka's names and defaults", () => {
    expect(resolveStreamsConfig(base)).toMatchObject({
      retryBackoffMs: 100,
      retryBackoffMaxMs: 1_000,
      requestTimeoutMs: 30_000,
      deliveryTimeoutMs: 120_000,
      defaultApiTimeoutMs: 60_000,
    });
    const properties = streamsConfigFromProperties({
      'retry.backoff.ms': '50',
      'retry.backoff.max.ms': '2000',
      'request.timeout.ms': '10000',
      'delivery.timeout.ms': '90000',
      'default.api.timeout.ms': '45000',
    });
    expect(properties).toEqual({
      retryBackoffMs: 50,
      retryBackoffMaxMs: 2_000,
      requestTimeoutMs: 10_000,
      deliveryTimeoutMs: 90_000,
      defaultApiTimeoutMs: 45_000,
    });
    expect(() => resolveStreamsConfig({ ...base, deliveryTimeoutMs: -1 })).toThrow(
      new StreamsConfigError('deliveryTimeoutMs must be a non-negative number, got -1'),
    );
  });

  it('takes max.partition.fetch.bytes as a positive integer, and its property', () => {
    expect(
      resolveStreamsConfig({ ...base, maxPartitionFetchBytes: 4096 }).maxPartitionFetchBytes,
    ).toBe(4096);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      refuses(
        { ...base, maxPartitionFetchBytes: bad },
        `maxPartitionFetchBytes must be a positive integer, got ${bad}`,
      );
    }
    expect(
      streamsConfigFromProperties({ 'max.partition.fetch.bytes': '262144' }).maxPartitionFetchBytes,
    ).toBe(262_144);
    expect(() => streamsConfigFromProperties({ 'max.partition.fetch.bytes': 'lots' })).toThrow(
      new StreamsConfigError("max.partition.fetch.bytes must be a number, got 'lots'"),
    );
  });

  it('takes max.task.idle.ms from -1 (never wait) up, an integer, and its property', () => {
    expect(resolveStreamsConfig(base).maxTaskIdleMs).toBe(0);
    for (const ms of [-1, 0, 500]) {
      expect(resolveStreamsConfig({ ...base, maxTaskIdleMs: ms }).maxTaskIdleMs).toBe(ms);
    }
    for (const bad of [-2, 1.5, Number.NaN]) {
      refuses(
        { ...base, maxTaskIdleMs: bad },
        `max.task.idle.ms must be -1 (never wait), 0 or a positive integer, got ${bad}`,
      );
    }
    expect(streamsConfigFromProperties({ 'max.task.idle.ms': '-1' }).maxTaskIdleMs).toBe(-1);
  });

  it("chooses the Kafka client: '@platformatic/kafka' by default, 'kafkajs' when asked", () => {
    expect(resolveStreamsConfig(base).kafkaClient).toBe('@platformatic/kafka');
    expect(resolveStreamsConfig({ ...base, kafkaClient: 'kafkajs' }).kafkaClient).toBe('kafkajs');
    expect(resolveStreamsConfig({ ...base, kafkaClient: '@platformatic/kafka' }).kafkaClient).toBe(
      '@platformatic/kafka',
    );
  });

  it('takes static membership under the streams protocol too', () => {
    const resolved = resolveStreamsConfig({
      ...base,
      kafkaClient: '@platformatic/kafka',
      groupProtocol: 'streams',
      groupInstanceId: 'order-stats-0',
    });
    expect(resolved.groupInstanceId).toBe('order-stats-0');
    expect(resolved.groupProtocol).toBe('streams');
  });

  it('rebalances cooperatively by default, eagerly on kafkajs', () => {
    expect(resolveStreamsConfig(base).rebalanceProtocol).toBe('cooperative');
    expect(resolveStreamsConfig(kafkajs).rebalanceProtocol).toBe('eager');
    const platformatic = { ...base, kafkaClient: '@platformatic/kafka' as const };
    expect(resolveStreamsConfig(platformatic).rebalanceProtocol).toBe('cooperative');
    expect(
      resolveStreamsConfig({ ...platformatic, rebalanceProtocol: 'eager' }).rebalanceProtocol,
    ).toBe('eager');
    refuses(
      { ...kafkajs, rebalanceProtocol: 'cooperative' },
      "rebalanceProtocol 'cooperative' needs kafkaClient '@platformatic/kafka': kafkajs has only the eager protocol",
    );
    refuses(
      {
        ...platformatic,
        rebalanceProtocol: 'sticky' as unknown as RebalanceProtocol,
      },
      "rebalanceProtocol must be 'cooperative' or 'eager', got 'sticky'",
    );
  });

  it('takes a static group instance id on @platformatic/kafka only', () => {
    const platformatic = { ...base, kafkaClient: '@platformatic/kafka' as const };
    expect(resolveStreamsConfig(platformatic).groupInstanceId).toBeUndefined();
    expect(resolveStreamsConfig({ ...base, groupInstanceId: 'order-stats-1' })).toMatchObject({
      kafkaClient: '@platformatic/kafka',
      groupInstanceId: 'order-stats-1',
    });
    for (const id of ['order-stats-0', 'a', 'A.b_c-9', 'x'.repeat(249)]) {
      expect(resolveStreamsConfig({ ...platformatic, groupInstanceId: id }).groupInstanceId).toBe(
        id,
      );
    }
    const properties = streamsConfigFromProperties({
      'application.id': 'config-spec',
      'bootstrap.servers': '127.0.0.1:9092',
      'group.instance.id': 'order-stats-2',
    });
    expect(properties).toEqual({ ...base, groupInstanceId: 'order-stats-2' });
    refuses(
      { ...kafkajs, groupInstanceId: 'order-stats-0' },
      "group.instance.id needs kafkaClient '@platformatic/kafka': kafkajs has no static membership",
    );
  });

  it.each(['', '.', '..', 'pod 0', 'pod/0', 'pod:0', 'é', 'x'.repeat(250), 7])(
    'refuses the group instance id %p',
    (id) => {
      refuses(
        {
          ...base,
          kafkaClient: '@platformatic/kafka',
          groupInstanceId: id as string,
        },
        `group.instance.id must be 1 to 249 letters, digits, '.', '_' and '-' (not '.' or '..'), got '${String(id)}'`,
      );
    },
  );

  it.each(['platformatic', 'KAFKAJS', '', 'node-rdkafka'])('refuses the client %p', (client) => {
    refuses(
      { ...base, kafkaClient: client as unknown as KafkaClientName },
      `kafkaClient must be '@platformatic/kafka' or 'kafkajs', got '${client}'`,
    );
  });
});

describe('groupProtocol (group.protocol)', () => {
  const platformatic = { ...base, kafkaClient: '@platformatic/kafka' as const };

  it("is 'classic' by default and 'streams' on @platformatic/kafka when asked", () => {
    expect(resolveStreamsConfig(base).groupProtocol).toBe('classic');
    expect(resolveStreamsConfig(platformatic).groupProtocol).toBe('classic');
    expect(resolveStreamsConfig({ ...platformatic, groupProtocol: 'streams' }).groupProtocol).toBe(
      'streams',
    );
    expect(resolveStreamsConfig({ ...base, groupProtocol: 'classic' }).groupProtocol).toBe(
      'classic',
    );
    expect(resolveStreamsConfig({ ...base, groupProtocol: 'streams' }).groupProtocol).toBe(
      'streams',
    );
  });

  it("refuses 'streams' on kafkajs, and unknown protocols", () => {
    refuses(
      { ...kafkajs, groupProtocol: 'streams' },
      "group.protocol 'streams' needs kafkaClient '@platformatic/kafka': kafkajs cannot speak the streams rebalance protocol (KIP-1071)",
    );
    refuses(
      {
        ...platformatic,
        groupProtocol: 'consumer' as unknown as GroupProtocol,
      },
      "group.protocol must be 'classic' or 'streams', got 'consumer'",
    );
  });

  it('resolves again a copy of a resolved streams-protocol config (the Nest module adds its RocksDB setter)', () => {
    // The copy carries the assignor's defaults as values: only settings a caller gave are refused.
    const resolved = resolveStreamsConfig({ ...platformatic, groupProtocol: 'streams' });
    expect(resolved.acceptableRecoveryLag).toBe(10_000);
    const copy = { ...resolved, commitIntervalMs: 50 };
    expect(() => resolveStreamsConfig(copy)).not.toThrow();
    refuses(
      { ...platformatic, groupProtocol: 'streams', maxWarmupReplicas: 5 },
      "maxWarmupReplicas has no effect under groupProtocol 'streams': the broker's assignor decides how tasks move; leave it unset",
    );
  });

  it('refuses under streams the settings the broker decides instead, naming what to set', () => {
    const streams = { ...platformatic, groupProtocol: 'streams' as const };
    refuses(
      { ...streams, numStandbyReplicas: 1 },
      "numStandbyReplicas 1 has no effect under groupProtocol 'streams': the broker assigns standbys from the group's streams.num.standby.replicas; set it with kafka-configs --alter --entity-type groups --entity-name config-spec --add-config streams.num.standby.replicas=1 and leave numStandbyReplicas unset",
    );
    for (const name of [
      'acceptableRecoveryLag',
      'maxWarmupReplicas',
      'probingRebalanceIntervalMs',
    ] as const) {
      refuses(
        { ...streams, [name]: 5 },
        `${name} has no effect under groupProtocol 'streams': the broker's assignor decides how tasks move; leave it unset`,
      );
    }
    refuses(
      { ...streams, rebalanceProtocol: 'eager' },
      "rebalanceProtocol 'eager' has no effect under groupProtocol 'streams': the broker reconciles assignments incrementally (a member gives up only the tasks that move); leave it unset",
    );
    // Unset, no standbys, cooperative (what the member does): accepted; all of them on classic.
    expect(
      resolveStreamsConfig({ ...streams, numStandbyReplicas: 0, rebalanceProtocol: 'cooperative' }),
    ).toMatchObject({ groupProtocol: 'streams', numStandbyReplicas: 0 });
    expect(
      resolveStreamsConfig({
        ...platformatic,
        numStandbyReplicas: 1,
        acceptableRecoveryLag: 5,
        maxWarmupReplicas: 5,
        probingRebalanceIntervalMs: 5,
        rebalanceProtocol: 'eager',
      }).groupProtocol,
    ).toBe('classic');
  });

  it('maps the group.protocol property', () => {
    expect(streamsConfigFromProperties({ 'group.protocol': 'streams' })).toEqual({
      groupProtocol: 'streams',
    });
  });
});
