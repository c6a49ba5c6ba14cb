import type { SystemRow } from '../harness/system-row';
import { instancesLabel, medianRound, swapOursAndBefore } from './stream-comparison';

const run = (eventsPerSec: number, note?: string): SystemRow => ({
  system: 'nest-streams (exactly_once_v2)',
  role: 'ours',
  compareKey: 'exactly_once_v2',
  result: { system: 'nest-streams (exactly_once_v2)', eventsPerSec },
  ...(note !== undefined && { note }),
});

describe('medianRound', () => {
  it('keeps a single round as it is', () => {
    const only = run(30_000, 'cpu 30.0 µs/event');
    expect(medianRound([only])).toBe(only);
  });

  it('reports the median round with every round in run order', () => {
    const row = medianRound([run(51_070, 'a'), run(28_076, 'b'), run(39_059, 'c')]);
    expect(row.result?.eventsPerSec).toBe(39_059);
    expect(row.note).toBe('c; median of 3 rounds (51,070 / 28,076 / 39,059 events/s)');
  });

  it('takes the lower middle round of an even count', () => {
    const row = medianRound([run(4), run(1), run(3), run(2)]);
    expect(row.result?.eventsPerSec).toBe(2);
    expect(row.note).toBe('median of 4 rounds (4 / 1 / 3 / 2 events/s)');
  });

  it('fails the row when any round failed', () => {
    const failed: SystemRow = { ...run(0), result: undefined, failure: 'wrong count for user-1' };
    expect(medianRound([run(40_000), failed, run(30_000)])).toBe(failed);
  });
});

describe('swapOursAndBefore', () => {
  const runners = [
    { name: 'ours-kafkajs', client: 'kafkajs' as const },
    { name: 'ours', client: '@platformatic/kafka' as const },
    { name: 'before', client: '@platformatic/kafka' as const, baselineRoot: '/tmp/before' },
    { name: 'java' },
  ];

  it('swaps the baseline with ours on the same client only', () => {
    expect(swapOursAndBefore(runners).map((r) => r.name)).toEqual([
      'ours-kafkajs',
      'before',
      'ours',
      'java',
    ]);
    const onKafkajs = [runners[0], { ...runners[2], client: 'kafkajs' as const }, runners[3]];
    expect(swapOursAndBefore(onKafkajs).map((r) => r.name)).toEqual([
      'before',
      'ours-kafkajs',
      'java',
    ]);
  });

  it('leaves the order alone without a baseline', () => {
    expect(swapOursAndBefore([runners[0], runners[3]]).map((r) => r.name)).toEqual([
      'ours-kafkajs',
      'java',
    ]);
  });
});

describe('instancesLabel', () => {
  it('names the instances of a row run as several, and leaves one instance as it was', () => {
    expect(instancesLabel('nest-streams at_least_once (kafkajs)', 2)).toBe(
      'nest-streams at_least_once (kafkajs), 2 instances',
    );
    expect(instancesLabel('nest-streams at_least_once (kafkajs)', 1)).toBe(
      'nest-streams at_least_once (kafkajs)',
    );
    expect(instancesLabel('kafka-streams-java at_least_once', undefined)).toBe(
      'kafka-streams-java at_least_once',
    );
  });
});
