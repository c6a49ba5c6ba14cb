import { Consumed, Materialized, Produced } from '@nest-streams/streams';
import type { DifferentialScenario } from '../harness/scenario';
import { num, str } from './serdes';

/** KStream-GlobalKTable joins, inner and left, on a key computed from the stream's value. */
export const globalTableJoinScenario: DifferentialScenario = {
  name: 'global-table-join',
  operators: 'globalTable; KStream join, leftJoin GlobalKTable (key selector)',
  input: {
    topics: [
      { topic: 'global-users', keys: 8, values: 'word', tombstones: 0.2, nullKeys: 0.03 },
      { topic: 'orders', keys: 6, values: 'number', tombstones: 0.05, nullKeys: 0.05, weight: 2 },
    ],
  },
  outputs: [
    { topic: 'out-global-join', key: 'string', value: 'string' },
    { topic: 'out-global-left-join', key: 'string', value: 'string' },
  ],
  stores: [{ name: 'global-users-store', kind: 'kv' }],
  build(builder) {
    const users = builder.globalTable(
      'global-users',
      Consumed.with(str, str),
      Materialized.as<string, string>('global-users-store'),
    );
    const orders = builder.stream('orders', Consumed.with(str, str));
    orders
      .join(
        users,
        (_k, v) => `k${num(v) % 8}`,
        (o, u) => `${o}@${u}`,
      )
      .to('out-global-join', Produced.with(str, str));
    orders
      .leftJoin(
        users,
        (_k, v) => `k${num(v) % 8}`,
        (o, u) => `${o}@${u}`,
      )
      .to('out-global-left-join', Produced.with(str, str));
  },
};
