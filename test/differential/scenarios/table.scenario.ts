import { Consumed, Materialized, Produced } from '@nest-streams/streams';
import type { DifferentialScenario } from '../harness/scenario';
import { num, str } from './serdes';

/** A table from a topic with tombstones, and the table operators over it. */
export const tableSourceScenario: DifferentialScenario = {
  name: 'table-source',
  operators:
    'table (tombstones), KTable filter, filterNot, mapValues (materialized or not), toStream',
  input: {
    topics: [{ topic: 'table-in', keys: 8, values: 'number', tombstones: 0.2, nullKeys: 0.03 }],
  },
  outputs: [
    { topic: 'out-table', key: 'string', value: 'string' },
    { topic: 'out-filtered', key: 'string', value: 'string' },
    { topic: 'out-filtered-not', key: 'string', value: 'string' },
    { topic: 'out-mapped', key: 'string', value: 'string' },
    { topic: 'out-plain', key: 'string', value: 'string' },
    { topic: 'out-plain-filtered', key: 'string', value: 'string' },
  ],
  stores: [
    { name: 'source-table', kind: 'kv' },
    { name: 'filtered-not', kind: 'kv' },
    { name: 'mapped', kind: 'kv' },
  ],
  build(builder) {
    const table = builder.table(
      'table-in',
      Consumed.with(str, str),
      Materialized.as<string, string>('source-table'),
    );
    table.toStream().to('out-table', Produced.with(str, str));
    table
      .filter((_k, v) => num(v) % 2 === 0)
      .toStream()
      .to('out-filtered', Produced.with(str, str));
    table
      .filterNot((_k, v) => num(v) % 3 === 0, undefined, Materialized.as('filtered-not'))
      .toStream()
      .to('out-filtered-not', Produced.with(str, str));
    table
      .mapValues((v, k) => `${k}:${v}`, undefined, Materialized.as<string, string>('mapped'))
      .toStream()
      .to('out-mapped', Produced.with(str, str));
    // Unnamed and read by nothing: Kafka Streams does not materialize it.
    const plain = builder.table('plain-table-in', Consumed.with(str, str));
    plain.toStream().to('out-plain', Produced.with(str, str));
    plain
      .filter((_k, v) => num(v) % 2 === 0)
      .toStream()
      .to('out-plain-filtered', Produced.with(str, str));
  },
};

/** Stream-table joins, inner and left, on the stream's key and after a key change. */
export const streamTableJoinScenario: DifferentialScenario = {
  name: 'stream-table-join',
  operators: 'KStream join, leftJoin KTable (also after selectKey: repartition)',
  input: {
    topics: [
      { topic: 'users', keys: 6, values: 'word', tombstones: 0.2 },
      { topic: 'orders', keys: 8, values: 'number', tombstones: 0.05, nullKeys: 0.05, weight: 2 },
    ],
  },
  outputs: [
    { topic: 'out-join', key: 'string', value: 'string' },
    { topic: 'out-left-join', key: 'string', value: 'string' },
    { topic: 'out-rekeyed-join', key: 'string', value: 'string' },
  ],
  stores: [{ name: 'users-store', kind: 'kv' }],
  build(builder) {
    const users = builder.table(
      'users',
      Consumed.with(str, str),
      Materialized.as<string, string>('users-store'),
    );
    const orders = builder.stream('orders', Consumed.with(str, str));
    orders.join(users, (o, u) => `${o}@${u}`).to('out-join', Produced.with(str, str));
    orders.leftJoin(users, (o, u) => `${o}@${u}`).to('out-left-join', Produced.with(str, str));
    orders
      .selectKey((_k, v) => (v === null ? 'k0' : `k${num(v) % 6}`))
      .join(users, (o, u) => `${o}@${u}`)
      .to('out-rekeyed-join', Produced.with(str, str));
  },
};

/** Table-table joins, inner (materialized) and left. */
export const tableTableJoinScenario: DifferentialScenario = {
  name: 'table-table-join',
  operators: 'KTable join (materialized), leftJoin KTable',
  input: {
    topics: [
      { topic: 'left', keys: 6, values: 'word', tombstones: 0.2 },
      { topic: 'right', keys: 6, values: 'number', tombstones: 0.2 },
    ],
  },
  outputs: [
    { topic: 'out-inner', key: 'string', value: 'string' },
    { topic: 'out-left', key: 'string', value: 'string' },
  ],
  stores: [
    { name: 'left-store', kind: 'kv' },
    { name: 'right-store', kind: 'kv' },
    { name: 'inner-join', kind: 'kv' },
  ],
  build(builder) {
    const left = builder.table(
      'left',
      Consumed.with(str, str),
      Materialized.as<string, string>('left-store'),
    );
    const right = builder.table(
      'right',
      Consumed.with(str, str),
      Materialized.as<string, string>('right-store'),
    );
    left
      .join(right, (l, r) => `${l}+${r}`, undefined, Materialized.as<string, string>('inner-join'))
      .toStream()
      .to('out-inner', Produced.with(str, str));
    left
      .leftJoin(right, (l, r) => `${l}+${r}`)
      .toStream()
      .to('out-left', Produced.with(str, str));
  },
};
