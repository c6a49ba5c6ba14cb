import { Serdes } from '../../../serde/serdes';
import { Consumed } from '../../consumed';
import { Materialized } from '../../materialized';
import { Produced } from '../../produced';
import { StreamsBuilder } from '../../streams-builder';
import { TableJoined } from '../../table-joined';
import { dslDriverPerTest, type SideRecord } from '../../../../test-support/dsl-test-support';
import { murmur3Hash128 } from './murmur3';

const str = Serdes.String();

/** Orders `orderId -> customerId:item` and customers `customerId -> name`. */
const INPUT: readonly SideRecord<'o' | 'c'>[] = [
  ['o', 'o1', 'c1:pen', 1],
  ['c', 'c1', 'Ann', 2],
  ['o', 'o2', 'c2:ink', 3],
  ['c', 'c2', 'Bob', 4],
  ['o', 'o1', 'c2:pen', 5],
  ['c', 'c2', 'Bobby', 6],
  ['o', 'o2', null, 7],
  ['c', 'c1', null, 8],
  ['o', 'o3', 'c1:cap', 9],
  ['c', 'c1', 'Cid', 10],
];

/** Expected records and bytes are Kafka Streams 4.4's TopologyTestDriver's on the same input. */
describe('the foreign-key table-table join through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  async function run(left: boolean, tableJoined?: TableJoined<string, string>) {
    const builder = new StreamsBuilder();
    const orders = builder.table('orders', Consumed.with(str, str));
    const customers = builder.table('customers', Consumed.with(str, str));
    const customerOf = (order: string): string | null => order.split(':')[0] || null;
    const joiner = (order: string | null, customer: string | null): string =>
      `${order}/${customer}`;
    const joined = left
      ? orders.leftJoin(customers, customerOf, joiner, tableJoined)
      : orders.join(
          customers,
          customerOf,
          joiner,
          tableJoined,
          tableJoined && Materialized.as<string, string>('fk-result').withValueSerde(str),
        );
    joined.toStream().to('out', Produced.with(str, str));
    const driver = await dsl.start(builder);
    const out = await dsl.linesPerSideRecord({ o: 'orders', c: 'customers' }, INPUT);
    return { out, driver, builder };
  }

  const INNER = [
    [],
    ['o1=c1:pen/Ann@2'],
    [],
    ['o2=c2:ink/Bob@4'],
    ['o1=c2:pen/Bob@5'],
    ['o1=c2:pen/Bobby@6', 'o2=c2:ink/Bobby@6'],
    ['o2=null@7'],
    [],
    [],
    ['o3=c1:cap/Cid@10'],
  ];

  it("joins each order with its customer, following both sides, with Kafka's topics and bytes", async () => {
    const { out, driver } = await run(false);
    expect(out).toEqual(INNER);
    const bytes = (topic: string) =>
      driver
        .producedRecords(`topology-test-driver-${topic}`)
        .map((r) => `${r.key!.toString()} ${r.value!.toString('hex')} @${r.timestamp}`);
    expect(bytes('KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic')).toEqual([
      'c1 0103162ed60e05f334ebb70db25f934d8dcf6f3100000000 @1',
      'c2 010312ba3c542b69d2ae52a63fb058ad6edd6f3200000000 @3',
      'c1 0100e4f66717758f7aa6b6c66018c3adb5036f3100000000 @5',
      'c2 0102e4f66717758f7aa6b6c66018c3adb5036f3100000000 @5',
      'c2 81016f3200000000 @7',
      'c1 010333dc4567111119d8732f06b6939e857c6f3300000000 @9',
    ]);
    expect(bytes('KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic')).toEqual([
      'o1 00162ed60e05f334ebb70db25f934d8dcf416e6e @2',
      'o2 0012ba3c542b69d2ae52a63fb058ad6edd426f62 @4',
      'o1 00e4f66717758f7aa6b6c66018c3adb503426f62 @5',
      'o1 00e4f66717758f7aa6b6c66018c3adb503426f626279 @6',
      'o2 0012ba3c542b69d2ae52a63fb058ad6edd426f626279 @6',
      'o2 80 @7',
      'o3 0033dc4567111119d8732f06b6939e857c436964 @10',
    ]);
    expect(
      driver.producedRecords(
        'topology-test-driver-KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010-changelog',
      ),
    ).toHaveLength(6);
  });

  it('left-joins each order with its customer or null', async () => {
    const { out } = await run(true);
    expect(out).toEqual([
      ['o1=c1:pen/null@1'],
      ['o1=c1:pen/Ann@2'],
      ['o2=c2:ink/null@3'],
      ['o2=c2:ink/Bob@4'],
      ['o1=c2:pen/Bob@5'],
      ['o1=c2:pen/Bobby@6', 'o2=c2:ink/Bobby@6'],
      ['o2=null@7'],
      [],
      ['o3=c1:cap/null@9'],
      ['o3=c1:cap/Cid@10'],
    ]);
  });

  it('names its nodes, store and topics as Kafka Streams does, or after TableJoined', async () => {
    const { out, builder, driver } = await run(false, TableJoined.as('fk'));
    expect(out).toEqual(INNER);
    const description = builder.build().describe();
    for (const line of [
      '    Processor: fk-subscription-registration-processor (stores: [])',
      '    Sink: fk-subscription-registration-sink (topic: fk-subscription-registration-topic)',
      '    Source: fk-subscription-registration-source (topics: [fk-subscription-registration-topic])',
      '    Processor: fk-subscription-receive (stores: [fk-subscription-store])',
      '    Processor: fk-subscription-join-foreign (stores: [customers-STATE-STORE-0000000003])',
      '    Processor: fk-foreign-join-subscription (stores: [fk-subscription-store])',
      '      <-- fk-subscription-join-foreign, fk-foreign-join-subscription',
      '    Source: fk-subscription-response-source (topics: [fk-subscription-response-topic])',
      '    Processor: fk-subscription-response-resolver (stores: [orders-STATE-STORE-0000000000])',
      '    Processor: fk-result (stores: [fk-result])',
    ]) {
      expect(description).toContain(line);
    }
    expect(driver.getKeyValueStore<string, string>('fk-result').get('o1')).toBe('c2:pen/Bobby');
    const unnamed = (await run(false)).builder.build();
    expect([...unnamed.internalTopicDefs().keys()]).toEqual([
      'KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic',
      'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic',
    ]);
    expect(unnamed.describe()).toContain(
      '    Processor: KTABLE-FK-JOIN-OUTPUT-0000000018 (stores: [])',
    );
    expect(unnamed.copartitionGroups()).toEqual([
      ['KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic', 'customers'],
      ['KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic', 'orders'],
    ]);
  });

  it("hashes as Kafka's Murmur3.hash128", () => {
    const hex = (s: string) => murmur3Hash128(Buffer.from(s)).toString('hex');
    expect(hex('')).toBe('9d2764a018e329428c3cf3b035938518');
    expect(hex('a')).toBe('3361634e7e0f5188e9c7dda24eae326b');
    expect(hex('0123456789abcdef')).toBe('1a6e941ec6a76967d7d82808f505d6b1');
    expect(hex('the quick brown fox jumps over the lazy dog!')).toBe(
      'b8aa1a4696bc36a79b7fa9a66df98d5b',
    );
  });
});
