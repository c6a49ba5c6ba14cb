import { Serdes } from '../serde/serdes';
import { Consumed } from './consumed';
import { Materialized } from './materialized';
import { StreamsBuilder } from './streams-builder';
import { addTableTableJoins, topology } from '../../test-support/topology-fixtures';

describe('KTable topology shapes', () => {
  it('materializes a source table under the given store name, a generated one only when read (Kafka Streams 4.x)', () => {
    const builder = new StreamsBuilder();
    const users = builder.table('users', Consumed.with(Serdes.String(), Serdes.String()));
    const named = builder.table(
      'orders',
      Consumed.as<string, string>('orders-source'),
      Materialized.as('orders-store'),
    );
    expect(users.queryableStoreName).toBeUndefined();
    expect(named.queryableStoreName).toBe('orders-store');
    expect(builder.build().describe()).toBe(
      topology(
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [users])',
        '      --> KTABLE-SOURCE-0000000002',
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000001',
        '',
        '  Sub-topology: 1',
        '    Source: orders-source-source (topics: [orders])',
        '      --> orders-source',
        '    Processor: orders-source (stores: [orders-store])',
        '      --> none',
        '      <-- orders-source-source',
        '',
      ),
    );
  });

  it('writes a table-table join as this, other and merge nodes', () => {
    const builder = new StreamsBuilder();
    addTableTableJoins(builder);
    const built = builder.build();
    expect(built.copartitionGroups()).toEqual([['left', 'right']]);
    expect(built.describe()).toBe(
      topology(
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [left])',
        '      --> KTABLE-SOURCE-0000000002',
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [right])',
        '      --> KTABLE-SOURCE-0000000005',
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [left-STATE-STORE-0000000000])',
        '      --> KTABLE-JOINTHIS-0000000007, inner-join-this',
        '      <-- KSTREAM-SOURCE-0000000001',
        '    Processor: KTABLE-SOURCE-0000000005 (stores: [right-STATE-STORE-0000000003])',
        '      --> KTABLE-JOINOTHER-0000000008, inner-join-other',
        '      <-- KSTREAM-SOURCE-0000000004',
        '    Processor: KTABLE-JOINOTHER-0000000008 (stores: [left-STATE-STORE-0000000000])',
        '      --> KTABLE-MERGE-0000000006',
        '      <-- KTABLE-SOURCE-0000000005',
        '    Processor: KTABLE-JOINTHIS-0000000007 (stores: [right-STATE-STORE-0000000003])',
        '      --> KTABLE-MERGE-0000000006',
        '      <-- KTABLE-SOURCE-0000000002',
        '    Processor: KTABLE-MERGE-0000000006 (stores: [joined])',
        '      --> KTABLE-TOSTREAM-0000000009',
        '      <-- KTABLE-JOINTHIS-0000000007, KTABLE-JOINOTHER-0000000008',
        '    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])',
        '      --> KSTREAM-SINK-0000000010',
        '      <-- KTABLE-MERGE-0000000006',
        '    Processor: inner-join-other (stores: [left-STATE-STORE-0000000000])',
        '      --> inner',
        '      <-- KTABLE-SOURCE-0000000005',
        '    Processor: inner-join-this (stores: [right-STATE-STORE-0000000003])',
        '      --> inner',
        '      <-- KTABLE-SOURCE-0000000002',
        '    Sink: KSTREAM-SINK-0000000010 (topic: out)',
        '      <-- KTABLE-TOSTREAM-0000000009',
        '    Processor: inner (stores: [])',
        '      --> none',
        '      <-- inner-join-this, inner-join-other',
        '',
      ),
    );
  });
});
