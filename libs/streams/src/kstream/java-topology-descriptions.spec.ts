import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Serdes } from '../serde/serdes';
import { Consumed } from './consumed';
import { Grouped } from './grouped';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamJoined } from './stream-joined';
import { StreamsBuilder } from './streams-builder';
import { Suppressed } from './suppressed';
import { JoinWindows } from './windows/join-windows';
import { TimeWindows } from './windows/time-windows';
import { addTableTableJoins } from '../../test-support/topology-fixtures';

/** What Kafka Streams 4.4.0 prints for the same topologies (test/fixtures). */
const JAVA = (
  JSON.parse(
    readFileSync(
      join(__dirname, '../../../../test/fixtures/java-topology-descriptions.json'),
      'utf8',
    ),
  ) as { topologies: Record<string, string> }
).topologies;

const str = Serdes.String();

/** Each topology as Kafka Streams' DSL wrote it to print the fixture's text. */
const TOPOLOGIES: Record<string, (builder: StreamsBuilder) => void> = {
  'stream-stream-join-after-selectKey': (builder) => {
    const left = builder.stream('left', Consumed.with(str, str));
    const right = builder.stream('right', Consumed.with(str, str));
    left
      .selectKey((_k, v) => v.split(':')[0])
      .join(
        right,
        (l, r) => `${l}+${r}`,
        JoinWindows.ofTimeDifferenceWithNoGrace(60_000),
        StreamJoined.with(str, str, str),
      )
      .to('out');
  },
  'suppress-windowed-count': (builder) => {
    builder
      .stream('events', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(60_000, 0))
      .count()
      .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
      .toStream()
      .to('out');
  },
  'ktable-groupBy-count': (builder) => {
    builder
      .table('users', Consumed.with(str, str))
      .groupBy((user, region) => ({ key: region, value: user }), Grouped.with(str, str))
      .count()
      .toStream()
      .to('out');
  },
  'groupBy-shared-repartition': (builder) => {
    const grouped = builder
      .stream<string, string>('input')
      .groupBy((_k, v) => v, Grouped.with('by-value', str, str));
    const counts = grouped.count(Materialized.as('count-store'));
    grouped.reduce((a, b) => a + b, Materialized.as('reduce-store'));
    counts.toStream().to('counts', Produced.with(str, Serdes.Long()));
  },
  'table-table-joins': addTableTableJoins,
  'foreign-key-join': (builder) => {
    const orders = builder.table('orders', Consumed.with(str, str));
    const products = builder.table('products', Consumed.with(str, str));
    orders
      .join(
        products,
        (order: string) => order.split(':')[0],
        (order: string, product: string) => `${order.split(':')[1]} x ${product}`,
      )
      .toStream()
      .to('out');
  },
};

describe("describe() prints Kafka Streams' text", () => {
  it.each(Object.keys(TOPOLOGIES))('%s', (name) => {
    const builder = new StreamsBuilder();
    TOPOLOGIES[name](builder);
    expect(builder.build().describe()).toBe(JAVA[name]);
  });
});
