import {
  Consumed,
  Grouped,
  Materialized,
  Produced,
  TimeWindowedSerde,
  TimeWindows,
} from '@nest-streams/streams';
import type { DifferentialScenario } from '../harness/scenario';
import { long, num, str } from './serdes';

const HOUR = 3_600_000;

/** KTable.groupBy with count, reduce and aggregate: adders and subtractors over a repartition. */
export const tableGroupByScenario: DifferentialScenario = {
  name: 'table-group-by',
  operators: 'KTable groupBy + KGroupedTable count, reduce, aggregate (adder and subtractor)',
  input: {
    topics: [{ topic: 'table-in', keys: 8, values: 'number', tombstones: 0.2, nullKeys: 0.03 }],
  },
  outputs: [
    { topic: 'out-tg-count', key: 'string', value: 'long' },
    { topic: 'out-tg-reduce', key: 'string', value: 'string' },
    { topic: 'out-tg-sum', key: 'string', value: 'long' },
  ],
  stores: [
    { name: 'grouped-source', kind: 'kv' },
    { name: 'table-group-count', kind: 'kv' },
    { name: 'table-group-reduce', kind: 'kv' },
    { name: 'table-group-sum', kind: 'kv' },
  ],
  build(builder) {
    const grouped = builder
      .table('table-in', Consumed.with(str, str), Materialized.as<string, string>('grouped-source'))
      .groupBy((_k, v) => ({ key: `g${num(v) % 3}`, value: v }), Grouped.with(undefined, str, str));
    grouped
      .count(Materialized.as('table-group-count'))
      .toStream()
      .to('out-tg-count', Produced.with(str, long));
    grouped
      .reduce(
        (agg, v) => `${agg}+${v}`,
        (agg, v) => `${agg}-${v}`,
        Materialized.as('table-group-reduce'),
      )
      .toStream()
      .to('out-tg-reduce', Produced.with(str, str));
    grouped
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + num(v),
        (_k, v, sum) => sum - num(v),
        Materialized.as<string, number>('table-group-sum').withValueSerde(long),
      )
      .toStream()
      .to('out-tg-sum', Produced.with(str, long));
  },
};

/** KStream.toTable, materialized under a name and not. */
export const toTableScenario: DifferentialScenario = {
  name: 'to-table',
  operators: 'KStream toTable (materialized; unnamed after mapValues)',
  input: {
    topics: [{ topic: 'events', keys: 6, values: 'number', tombstones: 0.1, nullKeys: 0.03 }],
  },
  outputs: [
    { topic: 'out-to-table', key: 'string', value: 'string' },
    { topic: 'out-to-table-plain', key: 'string', value: 'string' },
  ],
  stores: [{ name: 'as-table', kind: 'kv' }],
  build(builder) {
    const events = builder.stream('events', Consumed.with(str, str));
    events
      .toTable(undefined, Materialized.as<string, string>('as-table'))
      .toStream()
      .to('out-to-table', Produced.with(str, str));
    events
      .mapValues((v) => `${v}!`)
      .toTable()
      .toStream()
      .to('out-to-table-plain', Produced.with(str, str));
  },
};

/** Two grouped streams cogrouped into one aggregate, per key and per time window. */
export const cogroupScenario: DifferentialScenario = {
  name: 'cogroup',
  operators: 'KGroupedStream cogroup + CogroupedKStream aggregate, windowedBy(TimeWindows)',
  input: {
    topics: [
      { topic: 'clicks', keys: 5, values: 'number', tombstones: 0.05, nullKeys: 0.03 },
      { topic: 'views', keys: 5, values: 'number', tombstones: 0.05, nullKeys: 0.03 },
    ],
  },
  outputs: [
    { topic: 'out-cogrouped', key: 'string', value: 'string' },
    { topic: 'out-cogrouped-windows', key: 'time-windowed:100', value: 'string' },
  ],
  stores: [
    { name: 'cogrouped', kind: 'kv' },
    { name: 'cogrouped-windows', kind: 'window' },
  ],
  build(builder) {
    const clicks = builder.stream('clicks', Consumed.with(str, str)).groupByKey();
    const views = builder.stream('views', Consumed.with(str, str)).groupByKey();
    const cogrouped = clicks
      .cogroup<string>((_k, v, agg) => `${agg}c${v}`)
      .cogroup(views, (_k, v, agg) => `${agg}v${v}`);
    cogrouped
      .aggregate(() => '', Materialized.as('cogrouped'))
      .toStream()
      .to('out-cogrouped', Produced.with(str, str));
    cogrouped
      .windowedBy(TimeWindows.ofSizeAndGrace(100, 50))
      .aggregate(() => '', Materialized.as<string, string>('cogrouped-windows').withRetention(HOUR))
      .toStream()
      .to('out-cogrouped-windows', Produced.with(new TimeWindowedSerde(str, 100), str));
  },
};
