import {
  Admin,
  Base,
  MultipleErrors,
  NetworkError,
  ProtocolError,
  ResponseError,
} from '@platformatic/kafka';
import { completeStreamsLogger, type StreamsLogger } from '../../logging/logger';
import { resolveStreamsConfig } from '../../runtime/streams-config';
import { createKafkaClientAdapters } from '../kafka-client';
import { bridgePlatformaticLogs, describeError } from './platformatic-log-bridge';
import { idleGroupConsumerOptions } from '../../../test-support/group-consumer-options.fixture';

/** A logger keeping every line as `<level> <line>`, and the context asked for. */
function recording(): StreamsLogger & { lines: string[]; contexts: string[] } {
  const lines: string[] = [];
  const contexts: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  const logger = {
    lines,
    contexts,
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: (name: string) => {
      contexts.push(name);
      return logger;
    },
  };
  return logger;
}

/** A response error as platformatic builds it from a response's error codes. */
const responseError = (api: number, errors: Record<string, [number, string | null]>) =>
  new ResponseError(api, 4, errors as never, {});

describe('bridgePlatformaticLogs', () => {
  const clients: Base[] = [];
  const client = (): Base => {
    const made = new Base({ clientId: 'bridge-spec', bootstrapBrokers: ['127.0.0.1:1'] });
    clients.push(made);
    return made;
  };
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });

  it("writes platformatic's warnings and errors to the engine's logger, its traces to debug", () => {
    const logger = recording();
    const c = client();
    bridgePlatformaticLogs(c, logger);
    const id = c.instanceId;
    const coordinatorGone = new NetworkError('Connection closed');
    c.emitWithDebug('consumer:heartbeat', 'error', {
      groupId: 'g',
      memberId: 'm',
      generationId: 3,
      error: coordinatorGone,
    });
    c.emitWithDebug('consumer:heartbeat', 'stalled', {
      lastError: coordinatorGone,
      lastHeartbeat: new Date(0),
      stalledFor: 60_000,
    });
    // OffsetCommit (API 8) refused for a reason that is not the group's: a warning.
    const denied = responseError(8, { '/topics/0/partitions/0': [29, null] });
    c.emitWithDebug('client', 'performWithRetry:failed', 'commit', 0, [denied]);
    c.emitWithDebug('consumer', 'group:autocommit:error', { groupId: 'g', error: denied });
    c.emitWithDebug(null, 'error', new MultipleErrors('joinGroup failed 4 times.', [denied]));
    // A rejoin that met a coordinator that moved: the adapter joins again, a warning.
    const notCoordinator = responseError(11, { '': [16, null] });
    c.emitWithDebug(
      null,
      'error',
      new MultipleErrors('joinGroup failed 4 times.', [notCoordinator]),
    );
    c.emitWithDebug('client', 'performWithRetry:retry', 'metadata', 0, 3, 250);
    c.emitWithDebug('consumer', 'group:join', { groupId: 'g', memberId: 'm-1' });
    c.emitWithDebug('client', 'broker:failed', { broker: { host: 'h', port: 9 } });
    expect(logger.lines).toEqual([
      `warn [base ${id}] heartbeat of group g failed: Connection closed`,
      `warn [base ${id}] no heartbeat answered for 60000 ms: Connection closed`,
      `warn [base ${id}] commit failed: Received response with error while executing API OffsetCommit(v4) (TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.)`,
      `warn [base ${id}] commit of group g failed: Received response with error while executing API OffsetCommit(v4) (TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.)`,
      `error [base ${id}] failed: joinGroup failed 4 times. (TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.)`,
      `warn [base ${id}] failed: joinGroup failed 4 times. (NOT_COORDINATOR: This is not the correct coordinator.)`,
      `debug [base ${id}] metadata: attempt 1 of 4 failed, retrying in 250 ms`,
      `debug [base ${id}] joined group g as member m-1`,
      `debug [base ${id}] connection to h:9 failed`,
    ]);
  });

  it("writes a group's answers during a rebalance and connection failures to debug", () => {
    const logger = recording();
    const c = client();
    bridgePlatformaticLogs(c, logger);
    // Heartbeat (API 12) answered REBALANCE_IN_PROGRESS (27), JoinGroup (11) MEMBER_ID_REQUIRED (79).
    const rebalancing = responseError(12, { '': [27, null] });
    const memberIdRequired = responseError(11, { '': [79, null] });
    c.emitWithDebug('client', 'performWithRetry:failed', 'heartbeat', 3, [rebalancing]);
    c.emitWithDebug('client', 'performWithRetry:failed', 'joinGroup', 3, [memberIdRequired]);
    const unreachable = new MultipleErrors('Cannot connect to any broker.', [
      new NetworkError('Connection failed'),
    ]);
    c.emitWithDebug('client', 'performWithRetry:failed', 'metadata', 1, [unreachable, unreachable]);
    // CreateTopics (API 19) answered TOPIC_ALREADY_EXISTS (36): another instance created it first.
    const created = responseError(19, { '/topics/0': [36, "Topic 'changelog' already exists."] });
    c.emitWithDebug('client', 'performWithRetry:failed', 'createTopics', 0, [created]);
    // ListOffsets (API 2) answered FENCED_LEADER_EPOCH (74) by a partition's new leader, and
    // TxnOffsetCommit (28) NOT_COORDINATOR (16): the engine's retry policy looks them up again.
    const fenced = responseError(2, { '/topics/0/partitions/0': [74, null] });
    const moved = responseError(28, { '/topics/0/partitions/0': [16, null] });
    c.emitWithDebug('client', 'performWithRetry:failed', 'listOffsets', 3, [fenced]);
    c.emitWithDebug('client', 'performWithRetry:failed', 'txnOffsetCommit', 3, [moved]);
    expect(logger.lines.map((l) => l.split(' ')[0])).toEqual([
      'debug',
      'debug',
      'debug',
      'debug',
      'debug',
      'debug',
    ]);
    expect(logger.lines[4]).toContain('FENCED_LEADER_EPOCH');
    expect(logger.lines[5]).toContain('NOT_COORDINATOR');
    expect(logger.lines[3]).toContain('TOPIC_ALREADY_EXISTS');
    expect(logger.lines[0]).toContain('heartbeat failed: ');
    expect(logger.lines[0]).toContain('REBALANCE_IN_PROGRESS');
    expect(logger.lines[2]).toBe(
      `debug [base ${c.instanceId}] metadata failed after 2 attempts: Cannot connect to any broker. (Connection failed)`,
    );
  });

  it('stops writing once removed, and never writes to the console itself', () => {
    const logger = recording();
    const c = client();
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      jest.spyOn(console, m).mockImplementation(() => undefined),
    );
    try {
      const remove = bridgePlatformaticLogs(c, logger);
      c.emitWithDebug('consumer:heartbeat', 'stalled', { stalledFor: 1 });
      remove();
      c.emitWithDebug('consumer:heartbeat', 'stalled', { stalledFor: 2 });
      expect(logger.lines).toEqual([`warn [base ${c.instanceId}] no heartbeat answered for 1 ms`]);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('receives what a real failing operation reports: retries, the failed connection, the failure', async () => {
    const logger = recording();
    const admin = new Admin({
      clientId: 'bridge-spec',
      bootstrapBrokers: ['127.0.0.1:1'],
      retries: 1,
      retryDelay: 10,
      connectTimeout: 500,
    });
    clients.push(admin);
    bridgePlatformaticLogs(admin, logger);
    await expect(admin.listTopics()).rejects.toThrow();
    const id = admin.instanceId;
    expect(logger.lines).toEqual([
      `debug [admin ${id}] connection to 127.0.0.1:1 failed`,
      `debug [admin ${id}] metadata: attempt 1 of 2 failed, retrying in 10 ms`,
      `debug [admin ${id}] connection to 127.0.0.1:1 failed`,
      expect.stringMatching(
        new RegExp(`^debug \\[admin ${id}\\] metadata failed after 2 attempts: `),
      ),
    ]);
  });
});

describe('describeError', () => {
  it("names a protocol error's id and the server's message, and each nested error once", () => {
    expect(describeError(new ProtocolError('REBALANCE_IN_PROGRESS', 'see you'))).toBe(
      'REBALANCE_IN_PROGRESS: The group is rebalancing, so a rejoin is needed. (see you)',
    );
    const twice = new MultipleErrors('x failed 2 times.', [
      new NetworkError('refused'),
      new NetworkError('refused'),
    ]);
    expect(describeError(twice)).toBe('x failed 2 times. (refused)');
    expect(describeError('plain')).toBe('plain');
  });
});

describe('platformatic adapters of createKafkaClientAdapters', () => {
  it("write each client's reports to the engine's logger, as @platformatic/kafka", async () => {
    const logger = recording();
    const clients = createKafkaClientAdapters(
      resolveStreamsConfig({
        applicationId: 'bridge-spec',
        bootstrapServers: ['127.0.0.1:1'],
        kafkaClient: '@platformatic/kafka',
        // platformatic's idempotent producer retries forever when told 0 or 1 retries.
        kafka: { retry: { retries: 2, initialRetryTime: 10 }, connectionTimeout: 500 },
      }),
      completeStreamsLogger(logger),
    );
    const admin = clients.clusterAdmin();
    const producer = clients.recordProducers.idempotent();
    const reader = clients.assignedReaders()!;
    const consumer = clients.groupConsumers(
      idleGroupConsumerOptions('bridge-spec', {
        sessionTimeoutMs: 10_000,
        heartbeatIntervalMs: 1_000,
        rebalanceTimeoutMs: 10_000,
        maxWaitTimeMs: 100,
        rebalanceProtocol: 'cooperative',
      }),
    );
    const nothing = () => undefined;
    try {
      await expect(admin.connect()).rejects.toThrow();
      await expect(producer.connect()).rejects.toThrow();
      await expect(reader.fetch([{ topic: 't', partition: 0, offset: 0 }])).rejects.toThrow();
      await expect(
        consumer.start({
          topics: ['t'],
          listener: {
            onRebalancing: nothing,
            onRevoking: () => Promise.resolve(),
            onAssigned: () => Promise.resolve(),
            onLost: () => Promise.resolve(),
            onFetch: nothing,
            onFailed: nothing,
          },
          handleBatch: () => Promise.resolve(true),
        }),
      ).rejects.toThrow();
    } finally {
      await Promise.all([admin.disconnect(), producer.disconnect(), reader.close()]);
      await consumer.close();
    }
    expect(logger.contexts).toEqual(['@platformatic/kafka']);
    const kinds = new Set(
      logger.lines
        .filter((l) => l.includes('connection to 127.0.0.1:1 failed'))
        .map((l) => l.split(' ')[1].slice(1)),
    );
    // The group consumer's member is a platformatic consumer, its reader a base client.
    expect([...kinds].sort()).toEqual(['admin', 'base', 'consumer', 'producer']);
  });
});
