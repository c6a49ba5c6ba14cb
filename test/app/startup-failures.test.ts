/**
 * What a start that cannot go on looks like, per cause, on the example application (real
 * processes, the real broker): readiness answers 503 with the cause's own reason and code, a key
 * read answers 503 naming it (never "rebalancing"), the cause is logged once with what to do,
 * and once `task.timeout.ms` (TASK_TIMEOUT_MS) passed the process exits with code 1. A cause that
 * resolves itself within the wait (the topic created meanwhile) lets the start go on. Refused
 * credentials, which fail at once, are in test/security/kafka-sasl-ssl.e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { readyAndRunning } from '../support/health';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { nestLogLines, type NestLogLine } from '../support/nest-log';
import { waitFor } from '../support/wait-for';

/** What `/health/ready` says of the streams client. */
interface StreamsHealth {
  status: string;
  state: string;
  code: string;
  reason: string;
  problem?: { code: string; message: string };
}

describe('order-stats: a start that cannot go on says why, once, and exits', () => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: OrderStatsInstance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const stateDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'startup-failures-'));
    dirs.push(dir);
    return dir;
  };
  /** An instance of the application `${ctx.applicationId}-<app>` (one group per case). */
  const start = async (app: string, env: Record<string, string>): Promise<OrderStatsInstance> => {
    const instance = await OrderStatsInstance.start({
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: `${ctx.applicationId}-${app}`,
      ...env,
    });
    instances.push(instance);
    return instance;
  };
  /** The streams part of `/health/ready`, once it carries `code`. */
  const readiness = async (instance: OrderStatsInstance, code: string): Promise<StreamsHealth> => {
    let health: StreamsHealth | undefined;
    let status = 0;
    await waitFor(
      async () => {
        const answer = await instance.request<{ details: { streams: StreamsHealth } }>(
          '/health/ready',
        );
        status = answer.status;
        health = answer.body.details.streams;
        return health.code === code;
      },
      30_000,
      `readiness reporting ${code}`,
      {
        abortIf: () => (instance.alive ? undefined : `it exited:\n${instance.output}`),
        context: () => `${JSON.stringify(health)}\n${instance.output.slice(-3000)}`,
      },
    );
    expect(status).toBe(503);
    return health!;
  };
  /** Resolves with the exit code once the process ended. */
  const exitCode = (instance: OrderStatsInstance): Promise<number | null> =>
    new Promise((resolve) => {
      if (!instance.alive) resolve(instance.process.exitCode);
      else instance.process.once('exit', (code) => resolve(code));
    });
  /**
   * Its log's warnings and errors, and the health indicator's lines but the one a probe may
   * log before the start met its cause.
   */
  const logged = (instance: OrderStatsInstance): NestLogLine[] =>
    nestLogLines(instance.output).filter(
      (l) =>
        l.level === 'WARN' ||
        l.level === 'ERROR' ||
        (l.context === 'StreamsHealth' && !l.message.startsWith('readiness down [STARTING]')),
    );
  const exitLine: NestLogLine = {
    level: 'ERROR',
    context: 'KafkaStreams',
    message:
      'the process exits with code 1: the client could not start (client.exitOnStartFailure)',
  };
  /** What a start that waits on `cause` logs: the cause once, with its wait; readiness down. */
  const waitLines = (error: string, code: string, cause: string, waitS: number): NestLogLine[] => [
    {
      level: 'WARN',
      context: 'KafkaStreams',
      message: `${error} [${code}]: ${cause}; the start waits for it until task.timeout.ms (${waitS} s), then fails`,
    },
    {
      level: 'LOG',
      context: 'StreamsHealth',
      message: `readiness down [${code}]: starting: ${cause} (retrying until task.timeout.ms)`,
    },
  ];
  /** What it logs once the wait ran out: the failure, then the exit. */
  const failLines = (error: string, code: string, cause: string): NestLogLine[] => [
    {
      level: 'ERROR',
      context: 'KafkaStreams',
      message: `could not start: ${error} [${code}]: ${cause}`,
    },
    exitLine,
  ];
  /** A key read answers 503 naming the cause, not a rebalance. */
  const expectKeyRefused = async (instance: OrderStatsInstance, cause: string): Promise<void> => {
    const answer = await instance.request<{ message: string }>('/stats/alice');
    expect({ status: answer.status, message: answer.body.message }).toEqual({
      status: 503,
      message: `this instance is not started yet: ${cause}; retry after 2 s`,
    });
  };

  it('a state directory another live process holds: STATE_DIR_LOCKED', async () => {
    const input = await ctx.createTopic(ctx.topicName('locked'), 3);
    const dir = stateDir();
    const holder = await start('locked', { INPUT_TOPIC: input, STATE_DIR: dir });
    await waitFor(
      async () => readyAndRunning(await holder.request('/health/ready')),
      90_000,
      'the holder ready',
    );
    const started = Date.now();
    const second = await start('locked', {
      INPUT_TOPIC: input,
      STATE_DIR: dir,
      TASK_TIMEOUT_MS: '6000',
    });
    const cause = `state directory ${join(dir, `${ctx.applicationId}-locked`)} is locked by process ${holder.process.pid}; stop that process or use another state.dir`;
    expect(await readiness(second, 'STATE_DIR_LOCKED')).toMatchObject({
      status: 'down',
      state: 'REBALANCING',
      reason: `starting: ${cause} (retrying until task.timeout.ms)`,
      problem: { code: 'STATE_DIR_LOCKED', message: cause },
    });
    await expectKeyRefused(second, `${cause} [STATE_DIR_LOCKED]`);

    expect(await exitCode(second)).toBe(1);
    expect((Date.now() - started) / 1000).toBeGreaterThanOrEqual(6);
    expect(logged(second)).toEqual([
      ...waitLines('StateDirectoryLockedError', 'STATE_DIR_LOCKED', cause, 6),
      ...failLines('StateDirectoryLockedError', 'STATE_DIR_LOCKED', cause),
    ]);
    // The holder is untouched.
    expect(readyAndRunning(await holder.request('/health/ready'))).toBe(true);
  }, 180_000);

  it('a missing source topic: MISSING_SOURCE_TOPIC', async () => {
    const topic = ctx.topicName('never-created');
    const started = Date.now();
    const instance = await start('missing', {
      INPUT_TOPIC: topic,
      STATE_DIR: stateDir(),
      TASK_TIMEOUT_MS: '5000',
    });
    const cause = `source topic(s) missing: ${topic} (create them before starting the application)`;
    expect(await readiness(instance, 'MISSING_SOURCE_TOPIC')).toMatchObject({
      status: 'down',
      reason: `starting: ${cause} (retrying until task.timeout.ms)`,
      problem: { code: 'MISSING_SOURCE_TOPIC', message: cause },
    });
    await expectKeyRefused(instance, `${cause} [MISSING_SOURCE_TOPIC]`);

    expect(await exitCode(instance)).toBe(1);
    expect((Date.now() - started) / 1000).toBeGreaterThanOrEqual(5);
    expect(logged(instance)).toEqual([
      ...waitLines('MissingSourceTopicError', 'MISSING_SOURCE_TOPIC', cause, 5),
      ...failLines('MissingSourceTopicError', 'MISSING_SOURCE_TOPIC', cause),
    ]);
  }, 120_000);

  it('a missing source topic created during the wait: the start goes on', async () => {
    const topic = ctx.topicName('created-late');
    const instance = await start('late', {
      INPUT_TOPIC: topic,
      STATE_DIR: stateDir(),
      TASK_TIMEOUT_MS: '120000',
    });
    await readiness(instance, 'MISSING_SOURCE_TOPIC');
    await ctx.createTopic(topic, 3);
    await waitFor(
      async () => readyAndRunning(await instance.request('/health/ready')),
      90_000,
      'ready once the topic exists',
      { abortIf: () => (instance.alive ? undefined : `it exited:\n${instance.output}`) },
    );
    const cause = `source topic(s) missing: ${topic} (create them before starting the application)`;
    expect(logged(instance)).toEqual([
      ...waitLines('MissingSourceTopicError', 'MISSING_SOURCE_TOPIC', cause, 120),
      { level: 'LOG', context: 'StreamsHealth', message: 'readiness up' },
    ]);
    expect(nestLogLines(instance.output)).toContainEqual({
      level: 'LOG',
      context: 'KafkaStreams',
      message: 'the start goes on: the cause it waited for is resolved',
    });
  }, 180_000);

  it('unreachable brokers: BROKERS_UNREACHABLE', async () => {
    const started = Date.now();
    // kafkajs tries a connection for about 10 s before the first attempt fails (longer on a
    // loaded machine): task.timeout.ms leaves readiness 20 s or so to report the cause.
    const instance = await start('unreachable', {
      KAFKA_BROKERS: '127.0.0.1:1',
      INPUT_TOPIC: ctx.topicName('unreachable'),
      STATE_DIR: stateDir(),
      TASK_TIMEOUT_MS: '30000',
    });
    const health = await readiness(instance, 'BROKERS_UNREACHABLE');
    const cause = health.problem!.message;
    expect(cause).toMatch(
      /^cannot reach the Kafka brokers 127\.0\.0\.1:1 \(.*ECONNREFUSED.*\): check that they run and that bootstrap\.servers names them as this host reaches them$/,
    );
    expect(health).toMatchObject({
      status: 'down',
      reason: `starting: ${cause} (retrying until task.timeout.ms)`,
    });
    await expectKeyRefused(instance, `${cause} [BROKERS_UNREACHABLE]`);

    expect(await exitCode(instance)).toBe(1);
    expect((Date.now() - started) / 1000).toBeGreaterThanOrEqual(30);
    const lines = logged(instance);
    expect(lines.map((l) => `${l.level} ${l.context}`)).toEqual([
      'WARN KafkaStreams',
      'LOG StreamsHealth',
      'ERROR KafkaStreams',
      'ERROR KafkaStreams',
    ]);
    expect(lines[0].message).toMatch(
      /^cannot reach the Kafka brokers 127\.0\.0\.1:1 \(.*\): check that they run .*; retrying \(attempt 1, \d+ s of task\.timeout\.ms 30 s\)$/,
    );
    expect(lines[1].message).toBe(
      `readiness down [BROKERS_UNREACHABLE]: starting: ${cause} (retrying until task.timeout.ms)`,
    );
    expect(lines[2].message).toMatch(
      /^could not start: BrokersUnreachableError \[BROKERS_UNREACHABLE\]: cannot reach the Kafka brokers 127\.0\.0\.1:1 /,
    );
    expect(lines[3]).toEqual(exitLine);
  }, 120_000);
});
