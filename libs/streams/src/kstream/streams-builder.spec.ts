import { TopologyError } from '../errors/topology.error';
import { Serdes } from '../serde/serdes';
import { Branched } from './branched';
import { Consumed } from './consumed';
import { Grouped } from './grouped';
import { Joined } from './joined';
import { Materialized } from './materialized';
import { Named } from './named';
import { Produced } from './produced';
import { Repartitioned } from './repartitioned';
import { StreamsBuilder } from './streams-builder';
import { topology } from '../../test-support/topology-fixtures';

describe('StreamsBuilder', () => {
  it('names a stateless chain like Kafka Streams', () => {
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('input')
      .filter((_k, v) => v !== '')
      .mapValues((v) => v.length)
      .to('output');
    expect(builder.build().describe()).toBe(
      topology(
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])',
        '      --> KSTREAM-FILTER-0000000001',
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])',
        '      --> KSTREAM-MAPVALUES-0000000002',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: KSTREAM-MAPVALUES-0000000002 (stores: [])',
        '      --> KSTREAM-SINK-0000000003',
        '      <-- KSTREAM-FILTER-0000000001',
        '    Sink: KSTREAM-SINK-0000000003 (topic: output)',
        '      <-- KSTREAM-MAPVALUES-0000000002',
        '',
      ),
    );
  });

  it("builds Kafka's WordCount with Kafka 4's node names (a named store names the repartition nodes)", () => {
    const builder = new StreamsBuilder();
    builder
      .stream('streams-plaintext-input', Consumed.with(Serdes.String(), Serdes.String()))
      .flatMapValues((line) => line.toLowerCase().split(/\W+/))
      .groupBy((_k, word) => word)
      .count(Materialized.as('counts-store'))
      .toStream()
      .to('streams-wordcount-output', Produced.with(Serdes.String(), Serdes.Long()));
    const lines = builder
      .build()
      .describe()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.includes('Sub-topology'));
    expect(lines).toEqual([
      'Topologies:',
      '    Source: KSTREAM-SOURCE-0000000000 (topics: [streams-plaintext-input])',
      '      --> KSTREAM-FLATMAPVALUES-0000000001',
      '    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])',
      '      --> KSTREAM-KEY-SELECT-0000000002',
      '      <-- KSTREAM-SOURCE-0000000000',
      '    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])',
      '      --> counts-store-repartition-filter',
      '      <-- KSTREAM-FLATMAPVALUES-0000000001',
      '    Processor: counts-store-repartition-filter (stores: [])',
      '      --> counts-store-repartition-sink',
      '      <-- KSTREAM-KEY-SELECT-0000000002',
      '    Sink: counts-store-repartition-sink (topic: counts-store-repartition)',
      '      <-- counts-store-repartition-filter',
      '    Source: counts-store-repartition-source (topics: [counts-store-repartition])',
      '      --> KSTREAM-AGGREGATE-0000000003',
      '    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts-store])',
      '      --> KTABLE-TOSTREAM-0000000007',
      '      <-- counts-store-repartition-source',
      '    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])',
      '      --> KSTREAM-SINK-0000000008',
      '      <-- KSTREAM-AGGREGATE-0000000003',
      '    Sink: KSTREAM-SINK-0000000008 (topic: streams-wordcount-output)',
      '      <-- KTABLE-TOSTREAM-0000000007',
    ]);
  });

  it('inserts a repartition named after the store after a key change', () => {
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('input')
      .selectKey((_k, v) => v)
      .groupByKey()
      .count();
    const built = builder.build();
    expect(built.describe()).toBe(
      topology(
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])',
        '      --> KSTREAM-KEY-SELECT-0000000001',
        '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])',
        '      --> KSTREAM-FILTER-0000000005',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])',
        '      --> KSTREAM-SINK-0000000004',
        '      <-- KSTREAM-KEY-SELECT-0000000001',
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition)',
        '      <-- KSTREAM-FILTER-0000000005',
        '',
        '  Sub-topology: 1',
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition])',
        '      --> KSTREAM-AGGREGATE-0000000003',
        '    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000006',
        '',
      ),
    );
    expect([...built.internalTopicDefs().keys()]).toEqual([
      'KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition',
    ]);
  });

  it('does not repartition groupByKey without a key change', () => {
    const builder = new StreamsBuilder();
    const table = builder
      .stream<string, string>('input')
      .filter(() => true)
      .groupByKey()
      .reduce((a, b) => a + b);
    expect(table.queryableStoreName).toBeUndefined();
    const built = builder.build();
    expect(built.internalTopicDefs().size).toBe(0);
    expect(built.describe()).toContain(
      'Processor: KSTREAM-REDUCE-0000000003 (stores: [KSTREAM-REDUCE-STATE-STORE-0000000002])',
    );
  });

  it('names the repartition after Grouped and shares it between aggregations', () => {
    const builder = new StreamsBuilder();
    const grouped = builder
      .stream<string, string>('input')
      .groupBy((_k, v) => v, Grouped.with('by-value', Serdes.String(), Serdes.String()));
    const counts = grouped.count(Materialized.as('count-store'));
    grouped.reduce((a, b) => a + b, Materialized.as('reduce-store'));
    counts.toStream().to('counts', Produced.with(Serdes.String(), Serdes.Long()));
    expect(counts.queryableStoreName).toBe('count-store');
    expect(builder.build().describe()).toBe(
      topology(
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])',
        '      --> by-value',
        '    Processor: by-value (stores: [])',
        '      --> by-value-repartition-filter',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: by-value-repartition-filter (stores: [])',
        '      --> by-value-repartition-sink',
        '      <-- by-value',
        '    Sink: by-value-repartition-sink (topic: by-value-repartition)',
        '      <-- by-value-repartition-filter',
        '',
        '  Sub-topology: 1',
        '    Source: by-value-repartition-source (topics: [by-value-repartition])',
        '      --> KSTREAM-AGGREGATE-0000000002, KSTREAM-REDUCE-0000000006',
        '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [count-store])',
        '      --> KTABLE-TOSTREAM-0000000010',
        '      <-- by-value-repartition-source',
        '    Processor: KTABLE-TOSTREAM-0000000010 (stores: [])',
        '      --> KSTREAM-SINK-0000000011',
        '      <-- KSTREAM-AGGREGATE-0000000002',
        '    Processor: KSTREAM-REDUCE-0000000006 (stores: [reduce-store])',
        '      --> none',
        '      <-- by-value-repartition-source',
        '    Sink: KSTREAM-SINK-0000000011 (topic: counts)',
        '      <-- KTABLE-TOSTREAM-0000000010',
        '',
      ),
    );
  });

  it('gives each unnamed aggregation of a key-changed stream its own repartition topic', () => {
    const builder = new StreamsBuilder();
    const grouped = builder.stream<string, string>('input').groupBy((_k, v) => v);
    grouped.count();
    grouped.count();
    expect([...builder.build().internalTopicDefs().keys()]).toEqual([
      'KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000007-repartition',
    ]);
  });

  it('names split branches as Kafka Streams and returns them by name', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream<string, number>('input');
    const named = stream
      .split(Named.as('amount-'))
      .branch((_k, v) => v >= 100, Branched.as('large'))
      .defaultBranch(Branched.as('small'));
    const unnamed = stream
      .split()
      .branch((_k, v) => v > 0)
      .branch((_k, v) => v < 0)
      .defaultBranch();
    let consumed = false;
    const chained = stream
      .split(Named.as('c-'))
      .branch(
        () => true,
        Branched.withFunction((b) => b.mapValues((v) => v + 1), 'f'),
      )
      .branch(
        () => true,
        Branched.withConsumer((b) => {
          consumed = true;
          b.to('elsewhere');
        }, 'g'),
      )
      .noDefaultBranch();
    expect([...named.keys()]).toEqual(['amount-large', 'amount-small']);
    expect([...unnamed.keys()]).toEqual([
      'KSTREAM-BRANCH-00000000041',
      'KSTREAM-BRANCH-00000000042',
      'KSTREAM-BRANCH-00000000040',
    ]);
    expect([...chained.keys()]).toEqual(['c-f']);
    expect(consumed).toBe(true);
    const description = builder.build().describe();
    expect(description).toContain(
      [
        '    Processor: amount- (stores: [])',
        '      --> amount-large, amount-small',
        '      <-- KSTREAM-SOURCE-0000000000',
      ].join('\n'),
    );
    expect(description).toContain(
      [
        '    Processor: KSTREAM-BRANCH-0000000004 (stores: [])',
        '      --> KSTREAM-BRANCH-00000000041, KSTREAM-BRANCH-00000000042, KSTREAM-BRANCH-00000000040',
      ].join('\n'),
    );
  });

  it('repartitions explicitly through a named or generated topic', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream<string, string>('input');
    stream.repartition().to('a');
    stream
      .repartition(Repartitioned.as<string, string>('rekeyed').withNumberOfPartitions(4))
      .to('b');
    const built = builder.build();
    expect([...built.internalTopicDefs().values()]).toEqual([
      {
        name: 'KSTREAM-REPARTITION-0000000001-repartition',
        numPartitions: undefined,
        kind: 'repartition',
      },
      { name: 'rekeyed-repartition', numPartitions: 4, kind: 'repartition' },
    ]);
    const description = built.describe();
    expect(description).toContain(
      'Sink: KSTREAM-SINK-0000000002 (topic: KSTREAM-REPARTITION-0000000001-repartition)',
    );
    expect(description).toContain(
      'Source: KSTREAM-SOURCE-0000000004 (topics: [KSTREAM-REPARTITION-0000000001-repartition])',
    );
    expect(description).toContain('Sink: rekeyed-repartition-sink (topic: rekeyed-repartition)');
    expect(description).toContain(
      'Source: rekeyed-repartition-source (topics: [rekeyed-repartition])',
    );
  });

  it('repartitions a key-changed stream before a stream-table join and records co-partitioning', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream<string, string>('clicks').selectKey((_k, v) => v);
    const table = builder.table<string, string>('users');
    stream.join(table, (click, user) => `${click}:${user}`).to('enriched');
    stream.leftJoin(table, (click, user) => `${click}:${user ?? '-'}`).to('enriched-all');
    const built = builder.build();
    expect(built.copartitionGroups()).toEqual([
      ['KSTREAM-KEY-SELECT-0000000001-repartition', 'users'],
    ]);
    const description = built.describe();
    expect(description).toContain(
      'Sink: KSTREAM-SINK-0000000005 (topic: KSTREAM-KEY-SELECT-0000000001-repartition)',
    );
    expect(description).toContain(
      [
        '    Source: KSTREAM-SOURCE-0000000007 (topics: [KSTREAM-KEY-SELECT-0000000001-repartition])',
        '      --> KSTREAM-JOIN-0000000008, KSTREAM-LEFTJOIN-0000000013',
      ].join('\n'),
    );
    expect(description).toContain(
      'Processor: KSTREAM-JOIN-0000000008 (stores: [users-STATE-STORE-0000000002])',
    );
    expect(description).toContain(
      'Processor: KSTREAM-LEFTJOIN-0000000013 (stores: [users-STATE-STORE-0000000002])',
    );
  });

  it('names a stream-table join and its repartition after Joined', () => {
    const builder = new StreamsBuilder();
    const table = builder.table<string, string>('users');
    builder
      .stream<string, string>('clicks')
      .map((_k, v) => ({ key: v, value: v }))
      .join(table, (a, b) => a + b, Joined.as('enrich'))
      .to('out');
    const description = builder.build().describe();
    expect(description).toContain('Sink: enrich-repartition-sink (topic: enrich-repartition)');
    expect(description).toContain('Processor: enrich (stores: [users-STATE-STORE-0000000000])');
  });

  it('merges streams and keeps the union of their source topics for joins', () => {
    const builder = new StreamsBuilder();
    const a = builder.stream<string, string>('a');
    const b = builder.stream<string, string>(['b1', 'b2']);
    const table = builder.table<string, string>('t');
    a.merge(b)
      .join(table, (x, y) => x + y)
      .to('out');
    const built = builder.build();
    expect(built.copartitionGroups()).toEqual([['a', 'b1', 'b2', 't']]);
    expect(built.describe()).toContain(
      [
        '    Processor: KSTREAM-MERGE-0000000005 (stores: [])',
        '      --> KSTREAM-JOIN-0000000006',
        '      <-- KSTREAM-SOURCE-0000000000, KSTREAM-SOURCE-0000000001',
      ].join('\n'),
    );
  });

  it('rejects joined topics with different fixed partition counts at build time', () => {
    const builder = new StreamsBuilder();
    const table = builder
      .stream<string, string>('a')
      .repartition(Repartitioned.as<string, string>('three').withNumberOfPartitions(3))
      .groupByKey()
      .reduce((x, y) => x + y);
    builder
      .stream<string, string>('b')
      .repartition(Repartitioned.as<string, string>('two').withNumberOfPartitions(2))
      .join(table, (x, y) => x + y);
    expect(() => builder.build()).toThrow(TopologyError);
    expect(() => builder.build()).toThrow(
      "topics joined together must have the same number of partitions, but 'three-repartition' has 3, 'two-repartition' has 2",
    );
  });

  it('rejects operations across builders, illegal names and reused names', () => {
    const one = new StreamsBuilder();
    const two = new StreamsBuilder();
    const a = one.stream<string, string>('a');
    const b = two.stream<string, string>('b');
    expect(() => a.merge(b)).toThrow(TopologyError);
    expect(() => a.join(two.table<string, string>('t'), (x, y) => x + y)).toThrow(
      'come from different StreamsBuilders',
    );
    expect(() => Named.as('not legal!')).toThrow(TopologyError);
    a.filter(() => true, Named.as('f'));
    expect(() => a.filter(() => true, Named.as('f'))).toThrow("a node named 'f' already exists");
    expect(() => one.stream('a')).toThrow("topic 'a' is already read");
  });
});
