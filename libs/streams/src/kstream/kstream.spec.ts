import type { ProcessorContext } from '../processor/processor-context';
import type { Record } from '../processor/record';
import { Serdes } from '../serde/serdes';
import { Branched } from './branched';
import { Consumed } from './consumed';
import { Named } from './named';
import { Produced } from './produced';
import { Repartitioned } from './repartitioned';
import { StreamsBuilder } from './streams-builder';
import { dslDriverPerTest } from '../../test-support/dsl-test-support';

const str = Serdes.String();
const num = Serdes.Integer();
const strings = Consumed.with(str, str);
const toStrings = Produced.with(str, str);

describe('KStream operators through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  /** Builds with `define`, pipes `key=value@timestamp` records into `input`, reads `output`. */
  async function run(
    define: (builder: StreamsBuilder) => void,
    records: readonly string[],
  ): Promise<string[]> {
    const builder = new StreamsBuilder();
    define(builder);
    await dsl.start(builder);
    await dsl.pipeLines('input', records);
    return dsl.lines('output');
  }

  const abc = ['a=1@10', 'b=2@20', 'c=3@30'];

  it('filter keeps and filterNot drops the matching records', async () => {
    const odd = (_k: string, v: string): boolean => Number(v) % 2 === 1;
    expect(
      await run((b) => b.stream('input', strings).filter(odd).to('output', toStrings), abc),
    ).toEqual(['a=1@10', 'c=3@30']);
    expect(
      await run((b) => b.stream('input', strings).filterNot(odd).to('output', toStrings), abc),
    ).toEqual(['b=2@20']);
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
    ).toEqual(['1=A@10', '2=B@20', '3=C@30']);
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
    ).toEqual(['a1=a1=10@10', 'b2=b2=20@20']);
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
    ).toEqual(['a=1@10', "a'=11@10", 'b=2@20', "b'=22@20"]);
    expect(
      await run(
        (b) =>
          b
            .stream('input', strings)
            .flatMapValues((v) => v.split(' '))
            .to('output', toStrings),
        ['s=the quick fox@5', 't=@6'],
      ),
    ).toEqual(['s=the@5', 's=quick@5', 's=fox@5', 't=@6']);
  });

  it('peek sees every record and passes it on; foreach terminates', async () => {
    const peeked: string[] = [];
    const each: string[] = [];
    const out = await run((b) => {
      const stream = b.stream('input', strings);
      stream.peek((k, v) => peeked.push(`${k}:${v}`)).to('output', toStrings);
      stream.foreach((k, v) => each.push(`${k}:${v}`));
    }, abc);
    expect(out).toEqual(['a=1@10', 'b=2@20', 'c=3@30']);
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
    await dsl.start(builder);
    await dsl.pipeLines('input', ['a=1@1', 'b=50@2', 'c=5@3', 'd=11@4']);
    expect(dsl.lines('n-big')).toEqual(['b=50@2', 'd=11@4']);
    expect(dsl.lines('n-medium')).toEqual(['c=5@3']);
    expect(dsl.lines('n-small')).toEqual(['a=1@1']);
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
    ).toEqual(['b=2@20']);
  });

  it('merge interleaves both inputs in processing order', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', strings)
      .merge(builder.stream('other', strings).mapValues((v) => `other-${v}`))
      .to('output', toStrings);
    await dsl.start(builder);
    await dsl.pipeLines('input', ['a=1@1']);
    await dsl.pipeLines('other', ['b=2@2']);
    await dsl.pipeLines('input', ['c=3@3']);
    expect(dsl.lines('output')).toEqual(['a=1@1', 'b=other-2@2', 'c=3@3']);
  });

  it('to writes with the given serdes; repartition goes through the internal topic', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', strings)
      .mapValues((v) => Number(v))
      .repartition(Repartitioned.with(str, num).withName('by-key'))
      .mapValues((v) => v * 2)
      .to('output', Produced.with(str, num));
    const driver = await dsl.start(builder);
    await dsl.pipeLines('input', abc);
    expect(driver.producedRecords('topology-test-driver-by-key-repartition')).toHaveLength(3);
    expect(dsl.lines('output', str, num)).toEqual(['a=2@10', 'b=4@20', 'c=6@30']);
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
    ).toEqual(['a=1#1@10', 'b=2#2@20']);
  });
});
