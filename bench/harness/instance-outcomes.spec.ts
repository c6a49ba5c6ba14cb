import type { ChildOutcome } from './child-process';
import { mergeInstanceOutcomes } from './instance-outcomes';

function outcome(overrides: Partial<ChildOutcome> = {}): ChildOutcome {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    result: undefined,
    polledPeakRssMb: 500,
    outputTail: '',
    loadAverage: [1, 1.5],
    killed: false,
    ...overrides,
  };
}

function finished(seconds: number, details: Record<string, unknown>): ChildOutcome {
  return outcome({
    result: { records: 1_000, seconds, peakRssMb: 400, storeEntries: 60, details },
  });
}

describe('mergeInstanceOutcomes', () => {
  it('returns a single outcome as it is', () => {
    const only = finished(3, {});
    expect(mergeInstanceOutcomes([only])).toBe(only);
  });

  it('takes the slowest time and sums what adds up over the instances', () => {
    const merged = mergeInstanceOutcomes([
      finished(10, {
        processed: 600,
        commits: 7,
        cpuSeconds: 9,
        gcSeconds: 1,
        runningSeconds: 0.5,
        kafkaClient: 'kafkajs',
      }),
      finished(12, {
        processed: 450,
        commits: 9,
        cpuSeconds: 8,
        gcSeconds: 2,
        runningSeconds: 1.5,
        kafkaClient: 'kafkajs',
      }),
    ]);
    expect(merged.exitCode).toBe(0);
    expect(merged.loadAverage).toEqual([1, 1.5]);
    expect(merged.polledPeakRssMb).toBe(1_000);
    expect(merged.result).toEqual({
      records: 1_000,
      seconds: 12,
      peakRssMb: 800,
      storeEntries: 120,
      details: {
        instances: 2,
        kafkaClient: 'kafkajs',
        processed: 1_050,
        commits: 16,
        commitSeconds: undefined,
        restored: undefined,
        restoredAtRunning: undefined,
        cpuSeconds: 17,
        gcSeconds: 3,
        runningSeconds: 1.5,
      },
    });
  });

  it('has no result when an instance has none, and keeps the failure and every tail', () => {
    const merged = mergeInstanceOutcomes([
      finished(10, {}),
      outcome({ exitCode: 1, outputTail: 'streams-worker failed: boom' }),
    ]);
    expect(merged.result).toBeUndefined();
    expect(merged.exitCode).toBe(1);
    expect(merged.outputTail).toContain('[instance 2] streams-worker failed: boom');
  });

  it('fails when the instances disagree on the input', () => {
    const other = outcome({ result: { records: 999, seconds: 5, details: {} } });
    const merged = mergeInstanceOutcomes([finished(10, {}), other]);
    expect(merged.exitCode).toBe(1);
    expect(merged.result).toBeUndefined();
    expect(merged.outputTail).toContain("instances disagree on the input's records: 1000, 999");
  });
});
