import {
  DEAD_LETTER_HEADERS,
  type KeyValueStore,
  logAndContinueOnProductionError,
  type Processor,
  type ProcessorContext,
  PunctuationType,
  type Record,
  sendToDeadLetterTopic,
  Serdes,
  Stores,
  Topology,
} from '@nest-streams/streams';
import { TopologyTestDriver } from './topology-test-driver';

interface Event {
  userId: string;
  amount: number;
}

/** Counts and sums per key in `stats`, forwards the new total; prefetches a batch's keys. */
class StatsProcessor implements Processor<string, Event, string, { count: number; sum: number }> {
  private context!: ProcessorContext<string, { count: number; sum: number }>;
  private store!: KeyValueStore<string, { count: number; sum: number }>;
  init(context: ProcessorContext<string, { count: number; sum: number }>): void {
    this.context = context;
    this.store = context.getStateStore('stats');
  }
  async prefetch(records: readonly Record<string, Event>[]): Promise<void> {
    await this.store.prefetch(records.map((r) => r.key));
  }
  process(record: Record<string, Event>): void {
    const old = this.store.get(record.key) ?? { count: 0, sum: 0 };
    const next = { count: old.count + 1, sum: old.sum + record.value.amount };
    this.store.put(record.key, next);
    this.context.forward(record.withValue(next));
  }
}

function statsTopology(): Topology {
  return new Topology()
    .addSource('events', 'labs.events', {
      keySerde: Serdes.String(),
      valueSerde: Serdes.Json<Event>(),
    })
    .addProcessor('stats', () => new StatsProcessor(), 'events')
    .addStateStore(
      Stores.keyValueStoreBuilder(
        Stores.inMemoryKeyValueStore('stats'),
        Serdes.String(),
        Serdes.Json<{ count: number; sum: number }>(),
      ),
      'stats',
    )
    .addSink('out', 'stats-out', { keySerde: Serdes.String(), valueSerde: Serdes.Json() }, 'stats');
}

describe('TopologyTestDriver', () => {
  let driver: TopologyTestDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  it('processes piped records through a stateful processor into an output topic and a store', async () => {
    driver = await TopologyTestDriver.create(statsTopology());
    const input = driver.createInputTopic('labs.events', Serdes.String(), Serdes.Json<Event>());
    const output = driver.createOutputTopic(
      'stats-out',
      Serdes.String(),
      Serdes.Json<{ count: number; sum: number }>(),
    );
    await input.pipeInput('alice', { userId: 'alice', amount: 10 }, 1000);
    await input.pipeInput('bob', { userId: 'bob', amount: 5 }, 2000);
    await input.pipeInput('alice', { userId: 'alice', amount: 2.5 }, 3000);

    expect(
      output.readRecordsToList().map(({ key, value, timestamp }) => ({ key, value, timestamp })),
    ).toEqual([
      { key: 'alice', value: { count: 1, sum: 10 }, timestamp: 1000 },
      { key: 'bob', value: { count: 1, sum: 5 }, timestamp: 2000 },
      { key: 'alice', value: { count: 2, sum: 12.5 }, timestamp: 3000 },
    ]);
    const store = driver.getKeyValueStore<string, { count: number; sum: number }>('stats');
    expect(store.get('alice')).toEqual({ count: 2, sum: 12.5 });
    expect(store.get('carol')).toBeUndefined();
    expect(driver.metrics().processed).toBe(3);
  });

  it('skips records that do not deserialize, counts them and writes them to the dead-letter topic', async () => {
    driver = await TopologyTestDriver.create(statsTopology(), {
      config: {
        deserializationExceptionHandler: sendToDeadLetterTopic('labs.events.dlq', () => undefined),
      },
    });
    const input = driver.createInputTopic('labs.events', Serdes.String(), Serdes.Json<Event>());
    await input.pipeRaw(Buffer.from('mallory'), Buffer.from('{not json'), 500);
    await input.pipeInput('alice', { userId: 'alice', amount: 1 }, 600);

    expect(driver.metrics()).toMatchObject({
      processed: 1,
      skippedDeserialization: 1,
      deadLettered: 1,
    });
    const [dead] = driver.producedRecords('labs.events.dlq');
    expect(dead.key?.toString()).toBe('mallory');
    expect(dead.value?.toString()).toBe('{not json');
    expect(dead.headers?.[DEAD_LETTER_HEADERS.topic]).toBe('labs.events');
    expect(dead.headers?.[DEAD_LETTER_HEADERS.partition]).toBe('0');
    expect(dead.headers?.[DEAD_LETTER_HEADERS.offset]).toBe('0');
    expect(dead.headers?.[DEAD_LETTER_HEADERS.exception]).toBe('SerializationError');
    expect(driver.getKeyValueStore<string, unknown>('stats').get('alice')).toEqual({
      count: 1,
      sum: 1,
    });
  });

  it('fires wall-clock punctuators when the mocked clock advances, and stream-time ones with records', async () => {
    const fired: string[] = [];
    const topology = new Topology()
      .addSource('in', 'in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .addProcessor(
        'p',
        () => ({
          init(context: ProcessorContext<never, never>) {
            context.schedule(1000, PunctuationType.WALL_CLOCK_TIME, (t) => fired.push(`wall@${t}`));
            context.schedule(60_000, PunctuationType.STREAM_TIME, (t) => fired.push(`stream@${t}`));
          },
          process() {},
        }),
        'in',
      );
    driver = await TopologyTestDriver.create(topology, { initialWallClockTimeMs: 10_000 });
    const input = driver.createInputTopic('in', Serdes.String(), Serdes.String());
    await driver.advanceWallClockTime(999);
    expect(fired).toEqual([]);
    await driver.advanceWallClockTime(1);
    expect(fired).toEqual(['wall@11000']);
    await input.pipeInput('k', 'v', 5_000);
    await input.pipeInput('k', 'v', 30_000);
    await input.pipeInput('k', 'v', 65_000);
    expect(fired).toEqual(['wall@11000', 'stream@5000', 'stream@65000']);
  });

  it('feeds records written to a repartition topic to the sub-topology that reads it', async () => {
    const topology = new Topology()
      .addInternalTopic('by-user-repartition')
      .addSource('raw', 'orders', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Event>() })
      .addProcessor(
        'rekey',
        () => {
          let ctx: ProcessorContext<string, Event>;
          return {
            init: (c: ProcessorContext<string, Event>) => (ctx = c),
            process: (r: Record<string, Event>) => ctx.forward(r.withKey(r.value.userId)),
          };
        },
        'raw',
      )
      .addSink(
        'to-repartition',
        'by-user-repartition',
        { keySerde: Serdes.String(), valueSerde: Serdes.Json() },
        'rekey',
      )
      .addSource('events', 'by-user-repartition', {
        keySerde: Serdes.String(),
        valueSerde: Serdes.Json<Event>(),
      })
      .addProcessor('stats', () => new StatsProcessor(), 'events')
      .addStateStore(
        Stores.keyValueStoreBuilder(
          Stores.inMemoryKeyValueStore('stats'),
          Serdes.String(),
          Serdes.Json<{ count: number; sum: number }>(),
        ),
        'stats',
      );
    expect(topology.subtopologies().map((s) => s.sourceTopics)).toEqual([
      ['orders'],
      ['by-user-repartition'],
    ]);
    driver = await TopologyTestDriver.create(topology, { config: { applicationId: 'repart-app' } });
    const input = driver.createInputTopic('orders', Serdes.String(), Serdes.Json<Event>());
    await input.pipeInput('order-1', { userId: 'u1', amount: 3 }, 1);
    await input.pipeInput('order-2', { userId: 'u1', amount: 4 }, 2);
    await input.pipeInput('order-3', { userId: 'u2', amount: 5 }, 3);
    expect(driver.producedRecords('repart-app-by-user-repartition')).toHaveLength(3);
    const store = driver.getKeyValueStore<string, { count: number; sum: number }>('stats');
    expect(store.get('u1')).toEqual({ count: 2, sum: 7 });
    expect(store.get('u2')).toEqual({ count: 1, sum: 5 });
  });

  it('sends outputs that cannot be serialized to the production handler: continue drops them, fail stops', async () => {
    const picky = {
      serialize: (v: { count: number; sum: number }) => {
        if (v.count > 1) throw new Error(`count ${v.count} is too big to write`);
        return Buffer.from(JSON.stringify(v));
      },
      deserialize: (b: Buffer) => JSON.parse(b.toString()) as { count: number; sum: number },
    };
    const topology = () =>
      new Topology()
        .addSource('events', 'labs.events', {
          keySerde: Serdes.String(),
          valueSerde: Serdes.Json<Event>(),
        })
        .addProcessor('stats', () => new StatsProcessor(), 'events')
        .addStateStore(
          Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore('stats'),
            Serdes.String(),
            Serdes.Json<{ count: number; sum: number }>(),
          ),
          'stats',
        )
        .addSink('out', 'stats-out', { keySerde: Serdes.String(), valueSerde: picky }, 'stats');
    driver = await TopologyTestDriver.create(topology(), {
      config: { productionExceptionHandler: logAndContinueOnProductionError(() => undefined) },
    });
    let input = driver.createInputTopic('labs.events', Serdes.String(), Serdes.Json<Event>());
    await input.pipeInput('a', { userId: 'a', amount: 1 }, 1);
    await input.pipeInput('a', { userId: 'a', amount: 1 }, 2);
    await input.pipeInput('b', { userId: 'b', amount: 1 }, 3);
    expect(driver.producedRecords('stats-out').map((r) => r.key?.toString())).toEqual(['a', 'b']);
    await driver.close();

    driver = await TopologyTestDriver.create(topology());
    input = driver.createInputTopic('labs.events', Serdes.String(), Serdes.Json<Event>());
    await input.pipeInput('a', { userId: 'a', amount: 1 }, 1);
    await expect(input.pipeInput('a', { userId: 'a', amount: 1 }, 2)).rejects.toThrow(
      /could not be serialized and the production handler chose FAIL: count 2 is too big to write/,
    );
  });

  it('describes the topology like Kafka Streams', () => {
    expect(statsTopology().describe()).toBe(
      [
        'Topologies:',
        '   Sub-topology: 0',
        '    Source: events (topics: [labs.events])',
        '      --> stats',
        '    Processor: stats (stores: [stats])',
        '      --> out',
        '      <-- events',
        '    Sink: out (topic: stats-out)',
        '      <-- stats',
        '',
        '',
      ].join('\n'),
    );
  });
});
