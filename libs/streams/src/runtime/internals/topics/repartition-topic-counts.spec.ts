import { TopicsNotCopartitionedError } from '../../../errors/topics-not-copartitioned.error';
import { planRepartitionCounts } from './repartition-topic-counts';

const sub = (id: number, sourceTopics: string[], sinkTopics: string[] = []) => ({
  id,
  sourceTopics,
  sinkTopics,
});

describe('planRepartitionCounts', () => {
  it('gives a repartition topic the largest source count of the sub-topology that writes it, through chains', () => {
    const plan = planRepartitionCounts(
      [sub(0, ['orders', 'returns'], ['r1']), sub(1, ['r1'], ['r2']), sub(2, ['r2'])],
      new Map([
        ['r1', {}],
        ['r2', {}],
      ]),
      new Map([
        ['orders', 6],
        ['returns', 4],
      ]),
      [],
    );
    expect([...plan.repartition]).toEqual([
      ['r1', 6],
      ['r2', 6],
    ]);
    expect(plan.partitionsOf(sub(2, ['r2']))).toBe(6);
  });

  it('keeps a fixed count (Repartitioned.withNumberOfPartitions)', () => {
    const plan = planRepartitionCounts(
      [sub(0, ['orders'], ['r1']), sub(1, ['r1'])],
      new Map([['r1', { numPartitions: 2 }]]),
      new Map([['orders', 6]]),
      [],
    );
    expect(plan.repartition.get('r1')).toBe(2);
  });

  it('sizes a repartition topic joined with a table to the table topic, and the join and what follows with it', () => {
    // orders (6) -> selectKey -> r1 -> join with users (3) -> r2 -> aggregate
    const subs = [sub(0, ['orders'], ['r1']), sub(1, ['r1', 'users'], ['r2']), sub(2, ['r2'])];
    const plan = planRepartitionCounts(
      subs,
      new Map([
        ['r1', {}],
        ['r2', {}],
      ]),
      new Map([
        ['orders', 6],
        ['users', 3],
      ]),
      [['r1', 'users']],
    );
    expect(plan.repartition.get('r1')).toBe(3);
    expect(plan.partitionsOf(subs[1])).toBe(3);
    expect(plan.repartition.get('r2')).toBe(3);
    expect(plan.partitionsOf(subs[2])).toBe(3);
  });

  it('gives repartition topics joined with each other the largest count, or the fixed one', () => {
    const subs = [sub(0, ['a'], ['ra']), sub(1, ['b'], ['rb']), sub(2, ['ra', 'rb'])];
    // One join of `ra` and `rb`, with `rb`'s definition as given.
    const plan = (rb: { numPartitions?: number }) =>
      planRepartitionCounts(
        subs,
        new Map([
          ['ra', {}],
          ['rb', rb],
        ]),
        new Map([
          ['a', 6],
          ['b', 2],
        ]),
        [['ra', 'rb']],
      );
    expect([...plan({}).repartition]).toEqual([
      ['ra', 6],
      ['rb', 6],
    ]);
    const fixed = plan({ numPartitions: 4 });
    expect([...fixed.repartition]).toEqual([
      ['ra', 4],
      ['rb', 4],
    ]);
    expect(fixed.partitionsOf(subs[2])).toBe(4);
  });

  it('refuses input topics of a join with different counts, naming each count', () => {
    const attempt = () =>
      planRepartitionCounts(
        [sub(0, ['orders', 'users'])],
        new Map(),
        new Map([
          ['orders', 6],
          ['users', 3],
        ]),
        [['orders', 'users']],
      );
    expect(attempt).toThrow(TopicsNotCopartitionedError);
    expect(attempt).toThrow('topics not co-partitioned: orders (6), users (3)');
    try {
      attempt();
    } catch (error) {
      expect((error as TopicsNotCopartitionedError).code).toBe('TOPICS_NOT_COPARTITIONED');
      expect((error as TopicsNotCopartitionedError).retriable).toBe(false);
    }
  });

  it('refuses a fixed repartition count that differs from the topic it is joined with', () => {
    expect(() =>
      planRepartitionCounts(
        [sub(0, ['orders'], ['r1']), sub(1, ['r1', 'users'])],
        new Map([['r1', { numPartitions: 6 }]]),
        new Map([
          ['orders', 6],
          ['users', 3],
        ]),
        [['r1', 'users']],
      ),
    ).toThrow(
      /repartition topic 'r1' was given 6 partitions, but the topics it is joined with have 3/,
    );
  });
});
