import { KafkaStreamsState } from '@nest-streams/streams';
import { probeVerdict, type ProbeFacts, type ReadinessMode } from './probe-policy';

const base: ProbeFacts = {
  state: KafkaStreamsState.RUNNING,
  startedOnce: true,
  shuttingDown: false,
  restored: true,
  stalledForMs: 0,
};
const judge = (facts: Partial<ProbeFacts>, readiness: ReadinessMode = 'available') => {
  const { started, ready, live } = probeVerdict(
    { ...base, ...facts },
    { readiness, livenessStallMs: 120_000 },
  );
  return { started, ready, live };
};
const S = KafkaStreamsState;

describe('probeVerdict: started / ready / live for every state', () => {
  it.each([
    ['not created yet', { state: 'NOT_CREATED', startedOnce: false }, [false, false, true]],
    ['CREATED', { state: S.CREATED, startedOnce: false }, [false, false, true]],
    [
      'first rebalance (restoring the first assignment)',
      { state: S.REBALANCING, startedOnce: false, restored: false },
      [false, false, true],
    ],
    ['RUNNING', { state: S.RUNNING }, [true, true, true]],
    ['REBALANCING after RUNNING', { state: S.REBALANCING, restored: false }, [true, true, true]],
    ['shutting down while RUNNING', { shuttingDown: true }, [true, false, true]],
    [
      "PENDING_SHUTDOWN during this pod's shutdown",
      { state: S.PENDING_SHUTDOWN, shuttingDown: true },
      [true, false, true],
    ],
    [
      "NOT_RUNNING after this pod's shutdown",
      { state: S.NOT_RUNNING, shuttingDown: true },
      [true, false, true],
    ],
    [
      'NOT_RUNNING without a shutdown (closed by itself)',
      { state: S.NOT_RUNNING },
      [true, false, false],
    ],
    ['PENDING_SHUTDOWN without a shutdown', { state: S.PENDING_SHUTDOWN }, [true, false, false]],
    ['PENDING_ERROR', { state: S.PENDING_ERROR }, [true, false, false]],
    ['ERROR', { state: S.ERROR }, [true, false, false]],
    ['ERROR while shutting down', { state: S.ERROR, shuttingDown: true }, [true, false, false]],
    ['ERROR before ever RUNNING', { state: S.ERROR, startedOnce: false }, [false, false, false]],
    ['stalled past the limit', { stalledForMs: 120_001 }, [true, false, false]],
    ['stalled within the limit', { stalledForMs: 120_000 }, [true, true, true]],
  ] as const)('%s', (_name, facts, [started, ready, live]) => {
    expect(judge(facts as Partial<ProbeFacts>)).toEqual({ started, ready, live });
  });

  it('strict readiness: ready only when RUNNING with every store restored', () => {
    expect(judge({ state: S.RUNNING, restored: true }, 'strict').ready).toBe(true);
    expect(judge({ state: S.RUNNING, restored: false }, 'strict').ready).toBe(false);
    expect(judge({ state: S.REBALANCING }, 'strict')).toEqual({
      started: true,
      ready: false,
      live: true,
    });
    expect(judge({ state: S.REBALANCING, startedOnce: false }, 'strict').ready).toBe(false);
  });

  it('says why', () => {
    const verdict = probeVerdict(
      { ...base, stalledForMs: 300_000 },
      { readiness: 'available', livenessStallMs: 120_000 },
    );
    expect(verdict.reason).toBe(
      'the stream thread made no progress for 300 s while holding partitions (limit 120 s)',
    );
  });

  it('says why a start is taking long, without changing the verdict', () => {
    const facts: ProbeFacts = {
      ...base,
      state: KafkaStreamsState.REBALANCING,
      startedOnce: false,
      restored: false,
      startupProblem: {
        code: 'BROKERS_UNREACHABLE',
        message: 'cannot reach the Kafka brokers 10.0.0.9:9092 (connect ETIMEDOUT)',
      },
    };
    const verdict = probeVerdict(facts, { readiness: 'available', livenessStallMs: 120_000 });
    expect(verdict).toEqual({
      started: false,
      ready: false,
      live: true,
      reason:
        'starting: cannot reach the Kafka brokers 10.0.0.9:9092 (connect ETIMEDOUT) (retrying until task.timeout.ms)',
      code: 'BROKERS_UNREACHABLE',
    });
  });

  it("names a failed start's cause and code, not just ERROR", () => {
    const settings = { readiness: 'available', livenessStallMs: 120_000 } as const;
    const failed: ProbeFacts = {
      ...base,
      state: KafkaStreamsState.ERROR,
      startedOnce: false,
      startupProblem: {
        code: 'STATE_DIR_LOCKED',
        message:
          'state directory /s/app is locked by process 42; stop that process or use another state.dir',
      },
    };
    expect(probeVerdict(failed, settings)).toEqual({
      started: false,
      ready: false,
      live: false,
      reason:
        'could not start: state directory /s/app is locked by process 42; stop that process or use another state.dir',
      code: 'STATE_DIR_LOCKED',
    });
    expect(probeVerdict({ ...failed, startupProblem: undefined }, settings)).toMatchObject({
      reason: 'the client is in ERROR',
      code: 'FAILED',
    });
  });

  it.each([
    ['CREATED before the start', 'STARTING', { state: S.CREATED, startedOnce: false }],
    ['RUNNING', 'RUNNING', {}],
    ['REBALANCING', 'REBALANCING', { state: S.REBALANCING }],
    ['shutting down', 'SHUTTING_DOWN', { shuttingDown: true }],
    ['NOT_RUNNING by itself', 'STOPPED', { state: S.NOT_RUNNING }],
    ['stalled', 'STALLED', { stalledForMs: 120_001 }],
  ] as const)('codes %s as %s', (_name, code, facts) => {
    expect(
      probeVerdict(
        { ...base, ...(facts as Partial<ProbeFacts>) },
        {
          readiness: 'available',
          livenessStallMs: 120_000,
        },
      ).code,
    ).toBe(code);
  });

  it('codes strict readiness while restoring as RESTORING', () => {
    expect(
      probeVerdict({ ...base, restored: false }, { readiness: 'strict', livenessStallMs: 1 }).code,
    ).toBe('RESTORING');
  });
});
