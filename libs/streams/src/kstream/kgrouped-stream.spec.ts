import { TopologyTestDriver } from '@nest-streams/testing';
import { Serdes } from '../serde/serdes';
import type { KeyValueStore } from '../state/key-value-store';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import { Consumed } from './consumed';
import { Grouped } from './grouped';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';

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
  let driver: TopologyTestDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  function store<V>(name: string): KeyValueStore<string, ValueAndTimestamp<V>> {
    return driver!.getStateStore<KeyValueStore<string, ValueAndTimestamp<V>>>(name);
  }

  it('count emits the running count per key at max(record, previous) time', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', Consumed.with(str, str))
      .groupByKey()
      .count(Materialized.as<string, number>('counts').withCachingDisabled())
      .toStream()
      .to('output', Produced.with(str, long));
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('input', str, str);
    await input.pipeInput('a', 'x', 10);
    await input.pipeInput('b', 'x', 20);
    await input.pipeInput('a', 'x', 5);
    await input.pipeInput(null, 'x', 40);
    await input.pipeInput('b', null, 50);
    expect(
      driver
        .createOutputTopic<string, number>('output', str, long)
        .readRecordsToList()
        .map(({ key, value, timestamp }) => ({ key, value, timestamp })),
    ).toEqual([
      { key: 'a', value: 1, timestamp: 10 },
      { key: 'b', value: 1, timestamp: 20 },
      { key: 'a', value: 2, timestamp: 10 },
    ]);
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
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('input', str, str);
    await input.pipeInput('k', 'a', 1);
    await input.pipeInput('k', 'b', 2);
    await input.pipeInput('j', 'c', 3);
    await input.pipeInput('k', 'd', 4);
    expect(driver.createOutputTopic('output', str, str).readKeyValuesToList()).toEqual([
      { key: 'k', value: 'a' },
      { key: 'k', value: 'a|b' },
      { key: 'j', value: 'c' },
      { key: 'k', value: 'a|b|d' },
    ]);
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
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('labs.events', str, events);
    await input.pipeInput('u1', { userId: 'u1', amount: 10 }, 1);
    await input.pipeInput('u2', { userId: 'u2', amount: 5 }, 2);
    await input.pipeInput('u1', { userId: 'u1', amount: 2.5 }, 3);
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
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('labs.events', str, events);
    await input.pipeInput('u1', { userId: 'u1', amount: 10 }, 1);
    await input.pipeInput('u2', { userId: 'u2', amount: 1 }, 2);
    await input.pipeInput('u3', { userId: 'u3', amount: 30 }, 3);
    expect(driver.producedRecords('topology-test-driver-size-repartition')).toHaveLength(3);
    expect(
      driver.createOutputTopic<string, number>('output', str, long).readKeyValuesToList(),
    ).toEqual([
      { key: 'big', value: 1 },
      { key: 'small', value: 1 },
      { key: 'big', value: 2 },
    ]);
  });

  it("binds stores without serdes to the application's default serdes", async () => {
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('input')
      .groupByKey()
      .reduce((a, b) => a + b, Materialized.as<string, string>('concat').withCachingDisabled());
    driver = await TopologyTestDriver.create(builder.build(), {
      config: { defaultKeySerde: str, defaultValueSerde: str },
    });
    const input = driver.createInputTopic('input', str, str);
    await input.pipeInput('k', 'a', 1);
    await input.pipeInput('k', 'b', 2);
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
      updates: { key: string | null; value: number | null; timestamp: number }[];
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
      driver = await TopologyTestDriver.create(builder.build(), { commitEveryRecord: false });
      const input = driver.createInputTopic('input', str, str);
      for (const [key, t] of inputs) await input.pipeInput(key, 'x', t);
      await driver.commit();
      const updates = driver
        .createOutputTopic<string, number>('output', str, long)
        .readRecordsToList()
        .map(({ key, value, timestamp }) => ({ key, value, timestamp }));
      const s = store<number>('counts');
      const state = { a: s.get('a'), b: s.get('b'), c: s.get('c') };
      const changelog = driver.producedRecords('topology-test-driver-counts-changelog').length;
      await driver.close();
      driver = undefined;
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
      expect(on.updates).toEqual([
        { key: 'a', value: 4, timestamp: 7 },
        { key: 'b', value: 2, timestamp: 5 },
        { key: 'c', value: 1, timestamp: 6 },
      ]);
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
      driver = await TopologyTestDriver.create(builder.build(), { commitEveryRecord: false });
      const input = driver.createInputTopic('input', str, str);
      await input.pipeInput('a', 'x', 1);
      await input.pipeInput('a', 'x', 2);
      const output = driver.createOutputTopic<string, number>('output', str, long);
      expect(output.isEmpty()).toBe(true);
      expect(store<number>('counts').get('a')).toEqual({ value: 2, timestamp: 2 });
      await driver.commit();
      expect(output.readKeyValuesToList()).toEqual([{ key: 'a', value: 2 }]);
    });
  });
});
