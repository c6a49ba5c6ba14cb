import {
  Branched,
  Consumed,
  Materialized,
  Named,
  type Processor,
  type ProcessorContext,
  Produced,
  Record,
  type Serde,
  Serdes,
  StreamsBuilder,
} from '@nest-streams/streams';
import { TopologyTestDriver } from './topology-test-driver';

const str = Serdes.String();

/** Pipes `[key, value, timestamp]` records into `topic`; returns `out`'s records as lines. */
async function run(
  builder: StreamsBuilder,
  topic: string,
  records: readonly [string, string, number][],
): Promise<string[]> {
  const driver = await TopologyTestDriver.create(builder.build(), {
    config: { defaultKeySerde: str as Serde<unknown>, defaultValueSerde: str as Serde<unknown> },
  });
  try {
    const input = driver.createInputTopic(topic, str, str);
    for (const [key, value, timestamp] of records) await input.pipeInput(key, value, timestamp);
    return driver
      .createOutputTopic('out', str, str)
      .readRecordsToList()
      .map((r) => `${r.key}=${r.value}@${r.timestamp}`);
  } finally {
    await driver.close();
  }
}

describe("TopologyTestDriver: records the topology writes to topics it reads, as Kafka Streams' driver", () => {
  it('processes them one at a time, committing after each', async () => {
    const builder = new StreamsBuilder();
    const events = builder.stream('events', Consumed.with(str, str));
    const byFirst = events.groupBy((_k, v) => v.slice(0, 1)).count(Materialized.as('first'));
    const byLast = events.groupBy((_k, v) => v.slice(-1)).count(Materialized.as('last'));
    byFirst
      .join(byLast, (a, b) => `${a}/${b}`)
      .toStream()
      .to('out', Produced.with(str, str));
    // Each record feeds both repartition topics; the first count's update is committed (and
    // joined) before the second is processed.
    expect(
      await run(builder, 'events', [
        ['a', 'xx', 1],
        ['b', 'xx', 2],
      ]),
    ).toEqual(['x=1/1@1', 'x=2/1@2', 'x=2/2@2']);
  });

  it('takes the queued record with the smallest timestamp first', async () => {
    const builder = new StreamsBuilder();
    /** Forwards each record twice: to key `late` at its time + 10, then to `early` at it. */
    const twice = (): Processor<string, string, string, string> => {
      let context: ProcessorContext<string, string>;
      return {
        init: (c) => (context = c),
        process: (r) => {
          context.forward(new Record('late', r.value, r.timestamp + 10));
          context.forward(new Record('early', r.value, r.timestamp));
        },
      };
    };
    const branches = builder
      .stream('events', Consumed.with(str, str))
      .process(twice)
      .split(Named.as('b-'))
      .branch((k) => k === 'late', Branched.as('late'))
      .defaultBranch(Branched.as('early'));
    branches
      .get('b-late')!
      .repartition()
      .merge(branches.get('b-early')!.repartition())
      .to('out', Produced.with(str, str));
    expect(await run(builder, 'events', [['k', 'v', 5]])).toEqual(['early=v@5', 'late=v@15']);
  });

  it('feeds records written to a source topic back to its readers', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('events', Consumed.with(str, str))
      .mapValues((v) => `${v}!`)
      .to('loop', Produced.with(str, str));
    builder
      .stream('loop', Consumed.with(str, str))
      .mapValues((v) => `${v}?`)
      .to('out', Produced.with(str, str));
    expect(await run(builder, 'events', [['k', 'v', 1]])).toEqual(['k=v!?@1']);
  });
});
