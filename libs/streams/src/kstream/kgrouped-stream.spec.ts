import { Serdes } from '../serde/serdes';
import type { KeyValueStore } from '../state/key-value-store';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import { Consumed } from './consumed';
import { Grouped } from './grouped';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';
import { dslDriverPerTest } from '../../test-support/dsl-test-support';

interface Event {
  userId: string;
  amount: number;
}
interface Stats {
  count: number;
  sum: number;
}

const str = Serdes.String();
const long = Serdes.Long();
const events = Serdes.Json<Event>();
const stats = Serdes.Json<Stats>();

describe('KGroupedStream aggregations through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function store<V>(name: string): KeyValueStore<string, ValueAndTimestamp<V>> {
    return dsl.driver.getStateStore<KeyValueStore<string, ValueAndTimestamp<V>>>(name);
  }

  /** Pipes one event per `[userId, amount]` into `labs.events`, at timestamps 1, 2, 3, ... */
  async function pipeEvents(...amounts: [string, number][]): Promise<void> {
    const records = amounts.map(
      ([userId, amount], i) => [userId, { userId, amount }, i + 1] as const,
    );
    await dsl.pipe('labs.events', records, str, events);
  }

  it('count emits the running count per key at max(record, previous) time', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', Consumed.with(str, str))
      .groupByKey()
      .count(Materialized.as<string, number>('counts').withCachingDisabled())
      .toStream()
      .to('output', Produced.with(str, long));
    await dsl.start(builder);
    await dsl.pipeLines('input', ['a=x@10', 'b=x@20', 'a=x@5', 'null=x@40', 'b=null@50']);
    expect(dsl.lines('output', str, long)).toEqual(['a=1@10', 'b=1@20', 'a=2@10']);
    expect(store<number>('counts').get('a')).toEqual({ value: 2, timestamp: 10 });
    expect(store<number>('counts').get('b')).toEqual({ value: 1, timestamp: 20 });
    expect(store<number>('counts').get('c')).toBeUndefined();
  });

  it('reduce combines values; the first value of a key is its first aggregate', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', Consumed.with(str, str))
      .groupByKey()
      .reduce(
        (agg, v) => `${agg}|${v}`,
        Materialized.as<string, string>('joined').withCachingDisabled(),
      )
      .toStream()
      .to('output', Produced.with(str, str));
    await dsl.start(builder);
    await dsl.pipeLines('input', ['k=a@1', 'k=b@2', 'j=c@3', 'k=d@4']);
    expect(dsl.lines('output')).toEqual(['k=a@1', 'k=a|b@2', 'j=c@3', 'k=a|b|d@4']);
  });

  it('aggregate keeps count and sum per user (the order-stats aggregation)', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('labs.events', Consumed.with(str, events))
      .groupByKey()
      .aggregate<Stats>(
        () => ({ count: 0, sum: 0 }),
        (_user, event, agg) => ({ count: agg.count + 1, sum: agg.sum + event.amount }),
        Materialized.as<string, Stats>('stats-store').withValueSerde(stats).withCachingDisabled(),
      )
      .toStream()
      .to('stats', Produced.with(str, stats));
    const driver = await dsl.start(builder);
    await pipeEvents(['u1', 10], ['u2', 5], ['u1', 2.5]);
    expect(driver.createOutputTopic('stats', str, stats).readKeyValuesToList()).toEqual([
      { key: 'u1', value: { count: 1, sum: 10 } },
      { key: 'u2', value: { count: 1, sum: 5 } },
      { key: 'u1', value: { count: 2, sum: 12.5 } },
    ]);
    expect(store<Stats>('stats-store').get('u1')).toEqual({
      value: { count: 2, sum: 12.5 },
      timestamp: 3,
    });
  });

  it('groupBy repartitions by the new key before counting', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('labs.events', Consumed.with(str, events))
      .groupBy((_k, e) => (e.amount >= 10 ? 'big' : 'small'), Grouped.with('size', str, events))
      .count(Materialized.as<string, number>('by-size').withCachingDisabled())
      .toStream()
      .to('output', Produced.with(str, long));
    const driver = await dsl.start(builder);
    await pipeEvents(['u1', 10], ['u2', 1], ['u3', 30]);
    expect(driver.producedRecords('topology-test-driver-size-repartition')).toHaveLength(3);
    expect(dsl.lines('output', str, long)).toEqual(['big=1@1', 'small=1@2', 'big=2@3']);
  });

  it("binds stores without serdes to the application's default serdes", async () => {
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('input')
      .groupByKey()
      .reduce((a, b) => a + b, Materialized.as<string, string>('concat').withCachingDisabled());
    const driver = await dsl.start(builder, {
      config: { defaultKeySerde: str, defaultValueSerde: str },
    });
    await dsl.pipeLines('input', ['k=a@1', 'k=b@2']);
    expect(store<string>('concat').get('k')).toEqual({ value: 'ab', timestamp: 2 });
    expect(
      driver
        .producedRecords('topology-test-driver-concat-changelog')
        .map((r) => r.value?.toString()),
    ).toEqual(['a', 'ab']);
  });

  describe('caching on and off', () => {
    const inputs: [string, number][] = [
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['a', 4],
      ['b', 5],
      ['c', 6],
      ['a', 7],
    ];

    async function countWith(caching: boolean): Promise<{
      updates: string[];
      state: Record<string, ValueAndTimestamp<number> | undefined>;
      changelog: number;
    }> {
      const builder = new StreamsBuilder();
      const materialized = Materialized.as<string, number>('counts');
      if (!caching) materialized.withCachingDisabled();
      builder
        .stream('input', Consumed.with(str, str))
        .groupByKey()
        .count(materialized)
        .toStream()
        .to('output', Produced.with(str, long));
      const driver = await dsl.start(builder, { commitEveryRecord: false });
      await dsl.pipeLines(
        'input',
        inputs.map(([key, t]) => `${key}=x@${t}`),
      );
      await driver.commit();
      const updates = dsl.lines('output', str, long);
      const s = store<number>('counts');
      const state = { a: s.get('a'), b: s.get('b'), c: s.get('c') };
      const changelog = driver.producedRecords('topology-test-driver-counts-changelog').length;
      await dsl.close();
      return { updates, state, changelog };
    }

    it('reach the same final state; caching emits fewer updates', async () => {
      const off = await countWith(false);
      const on = await countWith(true);
      expect(off.state).toEqual({
        a: { value: 4, timestamp: 7 },
        b: { value: 2, timestamp: 5 },
        c: { value: 1, timestamp: 6 },
      });
      expect(on.state).toEqual(off.state);
      expect(off.updates).toHaveLength(7);
      expect(off.changelog).toBe(7);
      expect(on.updates).toEqual(['a=4@7', 'b=2@5', 'c=1@6']);
      expect(on.changelog).toBe(3);
    });

    it('with caching, emits nothing before the commit flushes the cache', async () => {
      const builder = new StreamsBuilder();
      builder
        .stream('input', Consumed.with(str, str))
        .groupByKey()
        .count(Materialized.as('counts'))
        .toStream()
        .to('output', Produced.with(str, long));
      const driver = await dsl.start(builder, { commitEveryRecord: false });
      await dsl.pipeLines('input', ['a=x@1', 'a=x@2']);
      expect(dsl.lines('output', str, long)).toEqual([]);
      expect(store<number>('counts').get('a')).toEqual({ value: 2, timestamp: 2 });
      await driver.commit();
      expect(dsl.lines('output', str, long)).toEqual(['a=2@2']);
    });
  });
});
