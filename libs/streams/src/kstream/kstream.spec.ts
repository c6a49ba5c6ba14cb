import { TopologyTestDriver } from '@nest-streams/testing';
import type { ProcessorContext } from '../processor/processor-context';
import type { Record } from '../processor/record';
import { Serdes } from '../serde/serdes';
import { Branched } from './branched';
import { Consumed } from './consumed';
import { Named } from './named';
import { Produced } from './produced';
import { Repartitioned } from './repartitioned';
import { StreamsBuilder } from './streams-builder';

const str = Serdes.String();
const num = Serdes.Integer();
const strings = Consumed.with(str, str);
const toStrings = Produced.with(str, str);

describe('KStream operators through the TopologyTestDriver', () => {
  let driver: TopologyTestDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  /** Builds with `define`, pipes `[key, value, timestamp]` into `input`, reads `output`. */
  async function run(
    define: (builder: StreamsBuilder) => void,
    records: [string | null, string | null, number][],
    output = 'output',
  ): Promise<{ key: string | null; value: string | null; timestamp: number }[]> {
    const builder = new StreamsBuilder();
    define(builder);
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('input', str, str);
    for (const [key, value, timestamp] of records) await input.pipeInput(key, value, timestamp);
    return driver
      .createOutputTopic(output, str, str)
      .readRecordsToList()
      .map(({ key, value, timestamp }) => ({ key, value, timestamp }));
  }

  const abc: [string, string, number][] = [
    ['a', '1', 10],
    ['b', '2', 20],
    ['c', '3', 30],
  ];

  it('filter keeps and filterNot drops the matching records', async () => {
    const odd = (_k: string, v: string): boolean => Number(v) % 2 === 1;
    expect(
      await run((b) => b.stream('input', strings).filter(odd).to('output', toStrings), abc),
    ).toEqual([
      { key: 'a', value: '1', timestamp: 10 },
      { key: 'c', value: '3', timestamp: 30 },
    ]);
    await driver?.close();
    expect(
      await run((b) => b.stream('input', strings).filterNot(odd).to('output', toStrings), abc),
    ).toEqual([{ key: 'b', value: '2', timestamp: 20 }]);
  });

  it('map replaces key and value; selectKey the key; mapValues the value', async () => {
    expect(
      await run(
        (b) =>
          b
            .stream('input', strings)
            .map((k, v) => ({ key: v, value: k.toUpperCase() }))
            .to('output', toStrings),
        abc,
      ),
    ).toEqual([
      { key: '1', value: 'A', timestamp: 10 },
      { key: '2', value: 'B', timestamp: 20 },
      { key: '3', value: 'C', timestamp: 30 },
    ]);
    await driver?.close();
    expect(
      await run(
        (b) =>
          b
            .stream('input', strings)
            .selectKey((k, v) => `${k}${v}`)
            .mapValues((v, k) => `${k}=${Number(v) * 10}`)
            .to('output', toStrings),
        abc.slice(0, 2),
      ),
    ).toEqual([
      { key: 'a1', value: 'a1=10', timestamp: 10 },
      { key: 'b2', value: 'b2=20', timestamp: 20 },
    ]);
  });

  it('fails loudly when a changed key reaches the default (bytes) serde, like Kafka Streams', async () => {
    // selectKey drops the source's key serde; the grouping then needs one (Grouped.with).
    await expect(
      run(
        (b) =>
          b
            .stream('input', strings)
            .selectKey((_k, v) => `user-${v}`)
            .groupByKey()
            .count()
            .toStream()
            .to('output', Produced.with(str, Serdes.Long())),
        abc.slice(0, 1),
      ),
    ).rejects.toThrow('the bytes serde (the default serde) cannot serialize a string');
  });

  it('flatMap and flatMapValues emit every returned record in order', async () => {
    expect(
      await run(
        (b) =>
          b
            .stream('input', strings)
            .flatMap((k, v) => [
              { key: k, value: v },
              { key: `${k}'`, value: `${v}${v}` },
            ])
            .to('output', toStrings),
        abc.slice(0, 2),
      ),
    ).toEqual([
      { key: 'a', value: '1', timestamp: 10 },
      { key: "a'", value: '11', timestamp: 10 },
      { key: 'b', value: '2', timestamp: 20 },
      { key: "b'", value: '22', timestamp: 20 },
    ]);
    await driver?.close();
    expect(
      await run(
        (b) =>
          b
            .stream('input', strings)
            .flatMapValues((v) => v.split(' '))
            .to('output', toStrings),
        [
          ['s', 'the quick fox', 5],
          ['t', '', 6],
        ],
      ),
    ).toEqual([
      { key: 's', value: 'the', timestamp: 5 },
      { key: 's', value: 'quick', timestamp: 5 },
      { key: 's', value: 'fox', timestamp: 5 },
      { key: 't', value: '', timestamp: 6 },
    ]);
  });

  it('peek sees every record and passes it on; foreach terminates', async () => {
    const peeked: string[] = [];
    const each: string[] = [];
    const out = await run((b) => {
      const stream = b.stream('input', strings);
      stream.peek((k, v) => peeked.push(`${k}:${v}`)).to('output', toStrings);
      stream.foreach((k, v) => each.push(`${k}:${v}`));
    }, abc);
    expect(out.map((r) => r.key)).toEqual(['a', 'b', 'c']);
    expect(peeked).toEqual(['a:1', 'b:2', 'c:3']);
    expect(each).toEqual(['a:1', 'b:2', 'c:3']);
  });

  it('split sends each record to the first matching branch, else the default', async () => {
    const builder = new StreamsBuilder();
    const branches = builder
      .stream('input', strings)
      .split(Named.as('n-'))
      .branch((_k, v) => Number(v) > 10, Branched.as('big'))
      .branch((_k, v) => Number(v) > 1, Branched.as('medium'))
      .defaultBranch(Branched.as('small'));
    for (const [name, stream] of branches) stream.to(name, toStrings);
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('input', str, str);
    for (const [k, v, t] of [
      ['a', '1', 1],
      ['b', '50', 2],
      ['c', '5', 3],
      ['d', '11', 4],
    ] as const)
      await input.pipeInput(k, v, t);
    const read = (topic: string): (string | null)[] =>
      driver!
        .createOutputTopic(topic, str, str)
        .readKeyValuesToList()
        .map((r) => r.key);
    expect(read('n-big')).toEqual(['b', 'd']);
    expect(read('n-medium')).toEqual(['c']);
    expect(read('n-small')).toEqual(['a']);
  });

  it('split without a default branch drops unmatched records', async () => {
    expect(
      await run((b) => {
        const branches = b
          .stream('input', strings)
          .split()
          .branch((_k, v) => v === '2')
          .noDefaultBranch();
        for (const stream of branches.values()) stream.to('output', toStrings);
      }, abc),
    ).toEqual([{ key: 'b', value: '2', timestamp: 20 }]);
  });

  it('merge interleaves both inputs in processing order', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', strings)
      .merge(builder.stream('other', strings).mapValues((v) => `other-${v}`))
      .to('output', toStrings);
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('input', str, str);
    const other = driver.createInputTopic('other', str, str);
    await input.pipeInput('a', '1', 1);
    await other.pipeInput('b', '2', 2);
    await input.pipeInput('c', '3', 3);
    expect(driver.createOutputTopic('output', str, str).readKeyValuesToList()).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: 'other-2' },
      { key: 'c', value: '3' },
    ]);
  });

  it('to writes with the given serdes; repartition goes through the internal topic', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', strings)
      .mapValues((v) => Number(v))
      .repartition(Repartitioned.with(str, num).withName('by-key'))
      .mapValues((v) => v * 2)
      .to('output', Produced.with(str, num));
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('input', str, str);
    for (const [k, v, t] of abc) await input.pipeInput(k, v, t);
    expect(driver.producedRecords('topology-test-driver-by-key-repartition')).toHaveLength(3);
    expect(
      driver
        .createOutputTopic('output', str, num)
        .readRecordsToList()
        .map(({ key, value, timestamp }) => ({ key, value, timestamp })),
    ).toEqual([
      { key: 'a', value: 2, timestamp: 10 },
      { key: 'b', value: 4, timestamp: 20 },
      { key: 'c', value: 6, timestamp: 30 },
    ]);
  });

  it('process runs a processor of your own and connects its stores', async () => {
    class Counter {
      private context!: ProcessorContext<string, string>;
      private seen = 0;
      init(context: ProcessorContext<string, string>): void {
        this.context = context;
      }
      process(record: Record<string, string>): void {
        this.seen++;
        this.context.forward(record.withValue(`${record.value}#${this.seen}`));
      }
    }
    expect(
      await run(
        (b) =>
          b
            .stream('input', strings)
            .process(() => new Counter())
            .to('output', toStrings),
        abc.slice(0, 2),
      ),
    ).toEqual([
      { key: 'a', value: '1#1', timestamp: 10 },
      { key: 'b', value: '2#2', timestamp: 20 },
    ]);
  });
});
