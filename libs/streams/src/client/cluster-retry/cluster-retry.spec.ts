import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import { ClusterRetry, type RetriedCall } from './cluster-retry';
import {
  DEFAULT_CLUSTER_RETRY_SETTINGS,
  retriesWithin,
  retryBackoff,
  type ClusterRetrySettings,
} from './cluster-retry-settings';
import { transientKafkaError, type TransientFault } from './transient-fault';

/** A fault named by the error's message (`NOT_COORDINATOR`), as a client's classifier finds it. */
const classify = (error: unknown): TransientFault | undefined =>
  transientKafkaError((error as Error).message);

/** A retry on a fake clock: sleeping moves the clock; the pauses are recorded. */
function fakeRetry(settings: ClusterRetrySettings = DEFAULT_CLUSTER_RETRY_SETTINGS) {
  let clock = 0;
  const pauses: number[] = [];
  const retry = new ClusterRetry(settings, {
    classify,
    now: () => clock,
    sleep: async (ms) => {
      pauses.push(ms);
      clock += ms;
    },
    random: () => 0.5,
  });
  return { retry, pauses, advance: (ms: number) => (clock += ms) };
}

/** A call failing with `errors` in turn, then answering `ok`. */
function failing(errors: string[], extra: Partial<RetriedCall<string>> = {}) {
  const attempts: number[] = [];
  const call: RetriedCall<string> = {
    name: 'OffsetCommit of group g',
    bound: 'api',
    attempt: async (n) => {
      attempts.push(n);
      const next = errors.shift();
      if (next !== undefined) throw new Error(next);
      return 'ok';
    },
    ...extra,
  };
  return { call, attempts };
}

describe('retryBackoff (Kafka ExponentialBackoff: 2x, jitter 0.2, capped)', () => {
  it('doubles from retry.backoff.ms up to retry.backoff.max.ms', () => {
    const nominal = [1, 2, 3, 4, 5, 6, 10].map((n) =>
      retryBackoff(DEFAULT_CLUSTER_RETRY_SETTINGS, n, () => 0.5),
    );
    expect(nominal).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('stays within ±20 % and never above the maximum', () => {
    expect(retryBackoff(DEFAULT_CLUSTER_RETRY_SETTINGS, 1, () => 0)).toBe(80);
    expect(retryBackoff(DEFAULT_CLUSTER_RETRY_SETTINGS, 1, () => 0.999999)).toBe(119);
    expect(retryBackoff(DEFAULT_CLUSTER_RETRY_SETTINGS, 5, () => 0.999999)).toBe(1000);
    const flat = { retryBackoffMs: 500, retryBackoffMaxMs: 100 };
    expect(retryBackoff(flat, 7, () => 0.9)).toBe(500);
  });

  it('counts the retries that fill a bound, for a client that counts attempts', () => {
    // 100 + 200 + 400 + 800 = 1,500 ms, then 1,000 ms each: 118.5 more seconds to 120 s.
    expect(retriesWithin(DEFAULT_CLUSTER_RETRY_SETTINGS, 120_000)).toBe(4 + 119);
    expect(retriesWithin(DEFAULT_CLUSTER_RETRY_SETTINGS, 60_000)).toBe(4 + 59);
  });
});

describe('ClusterRetry', () => {
  it('retries a transient fault with the back-off sequence and forgets the coordinator each time', async () => {
    const { retry, pauses } = fakeRetry();
    const faults: string[] = [];
    const { call, attempts } = failing(
      ['NOT_COORDINATOR', 'COORDINATOR_LOAD_IN_PROGRESS', 'NOT_ENOUGH_REPLICAS'],
      { onFault: (fault) => void faults.push(`${fault.kind} ${fault.reason}`) },
    );
    await expect(retry.run(call)).resolves.toBe('ok');
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(pauses).toEqual([100, 200, 400]);
    expect(faults).toEqual([
      'coordinator NOT_COORDINATOR',
      'coordinator COORDINATOR_LOAD_IN_PROGRESS',
      'busy NOT_ENOUGH_REPLICAS',
    ]);
  });

  it('throws any other error at once, as it is', async () => {
    const { retry, pauses } = fakeRetry();
    const { call, attempts } = failing(['UNKNOWN_MEMBER_ID']);
    await expect(retry.run(call)).rejects.toThrow('UNKNOWN_MEMBER_ID');
    expect(attempts).toEqual([1]);
    expect(pauses).toEqual([]);
  });

  it("retries a fault the call adds (a lagging broker's unknown topic)", async () => {
    const { retry } = fakeRetry();
    const { call, attempts } = failing(['UNKNOWN_TOPIC_OR_PARTITION'], {
      alsoRetry: (e) =>
        (e as Error).message === 'UNKNOWN_TOPIC_OR_PARTITION'
          ? { kind: 'leadership', reason: 'UNKNOWN_TOPIC_OR_PARTITION' }
          : undefined,
    });
    await expect(retry.run(call)).resolves.toBe('ok');
    expect(attempts).toEqual([1, 2]);
  });

  it('gives up with a typed retriable error once the next attempt would start past the bound', async () => {
    const settings = { ...DEFAULT_CLUSTER_RETRY_SETTINGS, defaultApiTimeoutMs: 5_000 };
    const { retry, pauses } = fakeRetry(settings);
    const { call } = failing(Array<string>(100).fill('LEADER_NOT_AVAILABLE'));
    const error = await retry.run(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    const timeout = error as ClusterFaultTimeoutError;
    expect(timeout.code).toBe('CLUSTER_FAULT_TIMEOUT');
    expect(timeout.retriable).toBe(true);
    // Pauses add up to 4,500 ms after 7 attempts; the 8th fails and 4,500 + 1,000 passes 5,000.
    expect(pauses).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    expect(timeout.attempts).toBe(8);
    expect(timeout.bound).toBe('default.api.timeout.ms');
    expect(timeout.fault).toBe('LEADER_NOT_AVAILABLE');
    expect((timeout.cause as Error).message).toBe('LEADER_NOT_AVAILABLE');
    expect(timeout.message).toContain('OffsetCommit of group g failed 8 times');
  });

  it('counts the time the attempts took against the bound (delivery.timeout.ms for sends)', async () => {
    const settings = { ...DEFAULT_CLUSTER_RETRY_SETTINGS, deliveryTimeoutMs: 60_000 };
    const { retry, advance } = fakeRetry(settings);
    const { call, attempts } = failing(Array<string>(100).fill('REQUEST_TIMED_OUT'), {
      bound: 'delivery',
      attempt: async (n) => {
        attempts.push(n);
        advance(30_000); // each attempt waits request.timeout.ms for nothing
        throw new Error('REQUEST_TIMED_OUT');
      },
    });
    const error = (await retry.run(call).catch((e: unknown) => e)) as ClusterFaultTimeoutError;
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect(error.bound).toBe('delivery.timeout.ms');
    expect(attempts).toEqual([1, 2]);
  });

  it('tells a refused answer as a warning each time, other first faults at debug', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (line: string) => lines.push(`debug ${line}`),
      info: (line: string) => lines.push(`info ${line}`),
      warn: (line: string) => lines.push(`warn ${line}`),
      error: (line: string) => lines.push(`error ${line}`),
    };
    const retry = new ClusterRetry(DEFAULT_CLUSTER_RETRY_SETTINGS, {
      classify: (error) => {
        const reason = (error as Error).message;
        return reason.startsWith('LEADER_MOVED_WHILE_ASKED')
          ? { kind: 'leadership', reason, refusedAnswer: true }
          : classify(error);
      },
      logger,
      sleep: async () => undefined,
      random: () => 0.5,
    });
    const { call } = failing([
      'NOT_LEADER_OR_FOLLOWER',
      'LEADER_MOVED_WHILE_ASKED: 0 (answered by node 2, led by node 1)',
      'LEADER_MOVED_WHILE_ASKED: 0 (answered by node 2, led by node 1)',
    ]);
    await expect(retry.run({ ...call, name: 'ListOffsets of t' })).resolves.toBe('ok');
    expect(lines.map((line) => line.split(' (')[0])).toEqual([
      'debug ListOffsets of t failed',
      'warn ListOffsets of t: answer refused',
      'warn ListOffsets of t: answer refused',
      'debug ListOffsets of t succeeded after 4 attempts',
    ]);
  });

  it('stops when the call is stopped, with the last error as it is', async () => {
    const { retry } = fakeRetry();
    let stopped = false;
    const { call, attempts } = failing(['NOT_COORDINATOR', 'NOT_COORDINATOR'], {
      stopped: () => stopped,
      onFault: () => void (stopped = true),
    });
    await expect(retry.run(call)).rejects.toThrow('NOT_COORDINATOR');
    expect(attempts).toEqual([1]);
  });
});
