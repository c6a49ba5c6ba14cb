import { TopologyError } from '../errors/topology.error';
import type { Processor } from '../processor/processor';
import type { ProcessorContext } from '../processor/processor-context';
import type { Record } from '../processor/record';
import { KafkaStreams } from '../runtime/kafka-streams';
import { Serdes } from '../serde/serdes';
import type { KeyValueStore } from '../state/key-value-store';
import { Stores } from '../state/stores';
import { dslDriverPerTest } from '../../test-support/dsl-test-support';
import { Consumed } from './consumed';
import { Materialized } from './materialized';
import { Named } from './named';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';

const str = Serdes.String();

/** Orders (`orderId=userId`) joined with a global table of users on the user id. */
function ordersWithUsers(builder: StreamsBuilder, left: boolean): void {
  const users = builder.globalTable(
    'users',
    Consumed.with(str, str),
    Materialized.as<string, string>('users-store'),
  );
  const orders = builder.stream('orders', Consumed.with(str, str));
  const joined = left
    ? orders.leftJoin(
        users,
        (_id, userId) => userId,
        (userId, name) => `${userId}:${name}`,
      )
    : orders.join(
        users,
        (_id, userId) => userId,
        (userId, name) => `${userId}:${name}`,
      );
  joined.to('out', Produced.with(str, str));
}

describe('GlobalKTable', () => {
  const dsl = dslDriverPerTest();

  it('is named as Kafka Streams names it, and described as a global store', () => {
    const builder = new StreamsBuilder();
    const users = builder.globalTable('users', Consumed.with(str, str));
    builder
      .stream('orders', Consumed.with(str, str))
      .join(
        users,
        (_k, v) => v,
        (o, u) => `${o}@${u}`,
      )
      .to('out');
    expect(users.queryableStoreName()).toBeUndefined();
    expect(builder.build().describe()).toBe(
      [
        // Kafka Streams 4.4's text for this topology: the global store is numbered in the
        // order it was added, before the stream's sub-topology.
        'Topologies:',
        '   Sub-topology: 0 for global store (will not generate tasks)',
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [users])',
        '      --> KTABLE-SOURCE-0000000002',
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [users-STATE-STORE-0000000000])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000001',
        '  Sub-topology: 1',
        '    Source: KSTREAM-SOURCE-0000000003 (topics: [orders])',
        '      --> KSTREAM-LEFTJOIN-0000000004',
        '    Processor: KSTREAM-LEFTJOIN-0000000004 (stores: [])',
        '      --> KSTREAM-SINK-0000000005',
        '      <-- KSTREAM-SOURCE-0000000003',
        '    Sink: KSTREAM-SINK-0000000005 (topic: out)',
        '      <-- KSTREAM-LEFTJOIN-0000000004',
        '',
        '',
      ].join('\n'),
    );
  });

  it("numbers global stores among the sub-topologies in the order added, as Kafka Streams 4.4's describe() prints it", () => {
    const builder = new StreamsBuilder();
    const users = builder.globalTable(
      'users',
      Consumed.with(str, str),
      Materialized.as<string, string>('users-global'),
    );
    builder
      .stream('orders', Consumed.with(str, str))
      .join(
        users,
        (_k, v) => v,
        (v, u) => `${v}${u}`,
      )
      .to('out');
    builder.addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('regions-upper'), str, str),
      'regions',
      Consumed.with(str, str),
      () => ({ process: () => undefined }),
    );
    builder.table('prices', Consumed.with(str, str), Materialized.as('prices-store'));
    const topology = builder.build();
    expect(topology.subtopologies().map((s) => s.id)).toEqual([1, 3]);
    // Printed by Kafka Streams 4.4.0 for the same topology.
    expect(topology.describe()).toBe(
      [
        'Topologies:',
        '   Sub-topology: 0 for global store (will not generate tasks)',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [users])',
        '      --> KTABLE-SOURCE-0000000001',
        '    Processor: KTABLE-SOURCE-0000000001 (stores: [users-global])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000000',
        '  Sub-topology: 1',
        '    Source: KSTREAM-SOURCE-0000000002 (topics: [orders])',
        '      --> KSTREAM-LEFTJOIN-0000000003',
        '    Processor: KSTREAM-LEFTJOIN-0000000003 (stores: [])',
        '      --> KSTREAM-SINK-0000000004',
        '      <-- KSTREAM-SOURCE-0000000002',
        '    Sink: KSTREAM-SINK-0000000004 (topic: out)',
        '      <-- KSTREAM-LEFTJOIN-0000000003',
        '',
        '  Sub-topology: 2 for global store (will not generate tasks)',
        '    Source: KSTREAM-SOURCE-0000000005 (topics: [regions])',
        '      --> KTABLE-SOURCE-0000000006',
        '    Processor: KTABLE-SOURCE-0000000006 (stores: [regions-upper])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000005',
        '  Sub-topology: 3',
        '    Source: KSTREAM-SOURCE-0000000007 (topics: [prices])',
        '      --> KTABLE-SOURCE-0000000008',
        '    Processor: KTABLE-SOURCE-0000000008 (stores: [prices-store])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000007',
        '',
        '',
      ].join('\n'),
    );
  });

  it('joins each order with the row of the key it selects, whatever the partitioning', async () => {
    const builder = new StreamsBuilder();
    ordersWithUsers(builder, false);
    const driver = await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=ann@1', 'u2=bob@2']);
    await dsl.pipeLines('orders', ['o1=u1@10', 'o2=u3@11', 'o3=u2@12', 'o4=null@13', 'null=u1@14']);
    await dsl.pipeLines('users', ['u1=null@20', 'u3=cy@21']);
    await dsl.pipeLines('orders', ['o5=u1@30', 'o6=u3@31']);
    expect(dsl.lines('out')).toEqual([
      'o1=u1:ann@10',
      'o3=u2:bob@12',
      // A null stream key does not matter: the join key comes from the value.
      'null=u1:ann@14',
      'o6=u3:cy@31',
    ]);
    const store = driver.getKeyValueStore<string, string>('users-store');
    expect([store.get('u1'), store.get('u2'), store.get('u3')]).toEqual([undefined, 'bob', 'cy']);
  });

  it('left join: an order without a row is joined with null', async () => {
    const builder = new StreamsBuilder();
    ordersWithUsers(builder, true);
    await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=ann@1']);
    await dsl.pipeLines('orders', ['o1=u1@10', 'o2=u3@11', 'o3=null@12']);
    expect(dsl.lines('out')).toEqual(['o1=u1:ann@10', 'o2=u3:null@11']);
  });

  it('addGlobalStore: a processor of your own fills a store every task reads', async () => {
    class Upper implements Processor<string, string, void, void> {
      private store!: KeyValueStore<string, string>;
      init(context: ProcessorContext<void, void>): void {
        this.store = context.getStateStore<KeyValueStore<string, string>>('upper');
      }
      process(record: Record<string, string>): void {
        this.store.put(record.key, record.value.toUpperCase());
      }
    }
    const builder = new StreamsBuilder();
    builder.addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('upper'), str, str),
      'names',
      Consumed.with(str, str).withName('names'),
      () => new Upper(),
    );
    builder
      .stream('ids', Consumed.with(str, str))
      .process<string, string>(
        () => {
          let store!: KeyValueStore<string, string>;
          let context!: ProcessorContext<string, string>;
          return {
            init(c: ProcessorContext<string, string>) {
              context = c;
              store = c.getStateStore<KeyValueStore<string, string>>('upper');
            },
            process(record: Record<string, string>) {
              context.forward(record.withValue(store.get(record.value) ?? '?'));
            },
          };
        },
        // A global store is read without connecting it (Kafka refuses connecting one).
        Named.as('lookup'),
      )
      .to('out', Produced.with(str, str));
    const topology = builder.build();
    expect(topology.describe()).toContain(
      '    Source: names-source (topics: [names])\n      --> names\n    Processor: names (stores: [upper])',
    );
    await dsl.start(builder);
    await dsl.pipeLines('names', ['a=ann@1']);
    await dsl.pipeLines('ids', ['x=a@2', 'y=b@3']);
    expect(dsl.lines('out')).toEqual(['x=ANN@2', 'y=?@3']);
  });

  it('refuses a global store whose builder logs (its topic is its changelog)', () => {
    const builder = new StreamsBuilder();
    expect(() =>
      builder
        .build()
        .addGlobalStore(
          Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('logged'), str, str),
          'src',
          {},
          'topic',
          'proc',
          () => ({ process: () => undefined }),
        ),
    ).toThrow(TopologyError);
  });

  it('is accepted by KafkaStreams, which runs global stores', () => {
    const builder = new StreamsBuilder();
    ordersWithUsers(builder, false);
    const streams = new KafkaStreams(builder.build(), {
      applicationId: 'global-spec',
      bootstrapServers: ['127.0.0.1:1'],
    });
    expect(streams.state).toBe('CREATED');
    expect([...streams.topology.globalStores().keys()]).toEqual(['users-store']);
  });
});
