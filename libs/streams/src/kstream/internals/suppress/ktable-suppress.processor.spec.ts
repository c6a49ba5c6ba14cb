import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import { TopologyError } from '../../../errors/topology.error';
import { Serdes } from '../../../serde/serdes';
import { Consumed } from '../../consumed';
import { Materialized } from '../../materialized';
import { Produced } from '../../produced';
import { StreamsBuilder } from '../../streams-builder';
import { BufferConfig, Suppressed } from '../../suppressed';
import { TimeWindows } from '../../windows/time-windows';
import {
  dslDriverPerTest,
  windowLabel,
  WINDOWED_INPUT,
} from '../../../../test-support/dsl-test-support';

const str = Serdes.String();

/** Inputs `key=value@timestamp`; expected records are Kafka Streams 4.4's after each record. */
const TABLE_INPUT = ['u1=a@1', 'u2=b@2', 'u1=c@3', 'u1=null@4', 'u3=d@9', 'u2=e@10', 'u4=f@30'];

describe('KTable.suppress through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function finalWindowCounts(): StreamsBuilder {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
      .count()
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .map((w, count) => ({ key: windowLabel(w), value: String(count) }))
      .to('out', Produced.with(str, str));
    return builder;
  }

  it('emits one final count per window once stream time passes its end plus grace', async () => {
    await dsl.start(finalWindowCounts());
    expect(await dsl.linesPerRecord('in', WINDOWED_INPUT)).toEqual([
      [],
      [],
      [],
      [],
      [],
      ['j@0/10=1@8', 'k@0/10=3@9'],
      [],
      [],
      ['j@10/20=1@16', 'k@10/20=1@12', 'k@20/30=1@20'],
    ]);
  });

  it('is named and stored as Kafka Streams names it', () => {
    const description = finalWindowCounts().build().describe();
    expect(description).toContain(
      [
        '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])',
        '      --> KTABLE-SUPPRESS-0000000003',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: KTABLE-SUPPRESS-0000000003 (stores: [KTABLE-SUPPRESS-STATE-STORE-0000000004])',
        '      --> KTABLE-TOSTREAM-0000000005',
      ].join('\n'),
    );
  });

  /** A table of `in` (cached, or not and with a generated store name), suppressed. */
  function limited(suppressed: Suppressed<string>, cached = true): StreamsBuilder {
    const builder = new StreamsBuilder();
    const materialized = cached
      ? Materialized.as<string, string>('t')
      : Materialized.with(str, str).withCachingDisabled();
    builder
      .table('in', Consumed.with(str, str), materialized)
      .suppress(suppressed)
      .toStream()
      .to('out', Produced.with(str, str));
    return builder;
  }

  it('emits the latest update of a key, deletes included, once the time limit passed', async () => {
    await dsl.start(
      limited(Suppressed.untilTimeLimit(5, BufferConfig.unbounded()).withName('limit')),
    );
    expect(await dsl.linesPerRecord('in', TABLE_INPUT)).toEqual([
      [],
      [],
      [],
      [],
      ['u1=null@4', 'u2=b@2'],
      [],
      ['u3=d@9', 'u2=e@10'],
    ]);
  });

  it("logs the buffer in Kafka's changelog format version 3", async () => {
    const driver = await dsl.start(
      limited(Suppressed.untilTimeLimit(5, BufferConfig.unbounded()).withName('limit'), false),
    );
    await dsl.pipeLines('in', TABLE_INPUT.slice(0, 6));
    const changelog = driver
      .producedRecords('topology-test-driver-limit-store-changelog')
      .map((r) => `${r.key!.toString('hex')} ${r.value?.toString('hex') ?? 'null'}`);
    // Kafka Streams 4.4 writes these bytes for the same records.
    expect(changelog).toEqual([
      '7531 0000000000000001000000000000000000000002696e0000000000000000ffffffffffffffff00000001610000000000000001',
      '7532 0000000000000002000000000000000100000002696e0000000000000000ffffffffffffffff00000001620000000000000002',
      '7531 0000000000000003000000000000000200000002696e0000000000000000ffffffff000000016100000001630000000000000001',
      '7531 0000000000000004000000000000000300000002696e0000000000000000ffffffff0000000163ffffffff0000000000000001',
      '7531 null',
      '7532 null',
      '7533 0000000000000009000000000000000400000002696e0000000000000000ffffffffffffffff00000001640000000000000009',
      '7532 000000000000000a000000000000000500000002696e00000000000000000000000162fffffffe0000000165000000000000000a',
    ]);
    expect(driver.producedRecords('topology-test-driver-limit-store-changelog')[0].headers).toEqual(
      {
        v: Buffer.from([3]),
      },
    );
  });

  it('emits the oldest update early when an eager buffer is full', async () => {
    await dsl.start(limited(Suppressed.untilTimeLimit(100, BufferConfig.maxRecords(1))));
    expect(await dsl.linesPerRecord('in', TABLE_INPUT)).toEqual([
      [],
      ['u1=a@1'],
      ['u2=b@2'],
      [],
      ['u1=null@4'],
      ['u3=d@9'],
      ['u2=e@10'],
    ]);
  });

  it('fails the task when a strict buffer is full', async () => {
    await dsl.start(
      limited(Suppressed.untilTimeLimit(100, BufferConfig.maxRecords(1).shutDownWhenFull()), false),
    );
    await dsl.pipeLines('in', ['u1=a@1']);
    const failure = dsl.pipeLines('in', ['u2=b@2']);
    await expect(failure).rejects.toThrow(StreamsProcessingError);
    await expect(failure).rejects.toThrow(
      'KTABLE-SUPPRESS-0000000003 buffer exceeded its max capacity. Currently [2/1] records and [66/9223372036854775807] bytes.',
    );
  });

  it('refuses untilWindowCloses on a table that is not windowed, and with an eager buffer', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('in', Consumed.with(str, str));
    const untilClose = Suppressed.untilWindowCloses(
      BufferConfig.unbounded(),
    ) as unknown as Suppressed<string>;
    expect(() => table.suppress(untilClose)).toThrow(
      new TopologyError(
        "Suppressed.untilWindowCloses needs a windowed KTable (a windowed aggregation), but 'KTABLE-SOURCE-0000000002' is not windowed: use Suppressed.untilTimeLimit",
      ),
    );
    expect(() => Suppressed.untilWindowCloses(BufferConfig.maxRecords(10))).toThrow(TopologyError);
    expect(() => BufferConfig.maxBytes(-1)).toThrow(
      new RangeError('a suppression bound must be a non-negative integer, got -1'),
    );
  });
});
