import { Consumed, Grouped, Materialized, Produced } from '@nest-streams/streams';
import type { DifferentialScenario } from '../harness/scenario';
import { long, num, str } from './serdes';

/** count, reduce and aggregate per key, with null keys and values (dropped) in the input. */
export const aggregateByKeyScenario: DifferentialScenario = {
  name: 'aggregate-by-key',
  operators: 'groupByKey + count, reduce, aggregate; toStream',
  input: {
    topics: [{ topic: 'events', keys: 8, values: 'number', tombstones: 0.1, nullKeys: 0.05 }],
  },
  outputs: [
    { topic: 'out-count', key: 'string', value: 'long' },
    { topic: 'out-reduce', key: 'string', value: 'string' },
    { topic: 'out-sum', key: 'string', value: 'long' },
  ],
  stores: [
    { name: 'counts', kind: 'kv' },
    { name: 'reduced', kind: 'kv' },
    { name: 'sums', kind: 'kv' },
  ],
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    grouped.count(Materialized.as('counts')).toStream().to('out-count', Produced.with(str, long));
    grouped
      .reduce((a, b) => `${a},${b}`, Materialized.as('reduced'))
      .toStream()
      .to('out-reduce', Produced.with(str, str));
    grouped
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + num(v),
        Materialized.as<string, number>('sums').withValueSerde(long),
      )
      .toStream()
      .to('out-sum', Produced.with(str, long));
  },
};

/** Aggregations after a key change: `groupBy` and `selectKey` + `groupByKey` repartition. */
export const groupByRepartitionScenario: DifferentialScenario = {
  name: 'group-by-repartition',
  operators: 'groupBy, selectKey + groupByKey (repartition topics) + count, reduce',
  input: {
    topics: [{ topic: 'events', keys: 8, values: 'number', tombstones: 0.1, nullKeys: 0.05 }],
  },
  outputs: [
    { topic: 'out-group-count', key: 'string', value: 'long' },
    { topic: 'out-first-digit', key: 'string', value: 'string' },
  ],
  stores: [
    { name: 'group-counts', kind: 'kv' },
    { name: 'first-digit', kind: 'kv' },
  ],
  build(builder) {
    const events = builder.stream('events', Consumed.with(str, str));
    events
      .groupBy(
        (_k, v) => (v === null ? 'g-none' : `g${num(v) % 4}`),
        Grouped.with(undefined, str, str),
      )
      .count(Materialized.as('group-counts'))
      .toStream()
      .to('out-group-count', Produced.with(str, long));
    events
      .selectKey((_k, v) => (v === null ? 'none' : v.slice(0, 1)))
      .groupByKey()
      .reduce((a, b) => `${a}+${b}`, Materialized.as('first-digit'))
      .toStream()
      .to('out-first-digit', Produced.with(str, str));
  },
};
