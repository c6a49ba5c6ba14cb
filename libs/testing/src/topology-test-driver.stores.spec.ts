import {
  Consumed,
  Materialized,
  Produced,
  Serdes,
  SessionWindowedSerde,
  SessionWindows,
  Stores,
  StreamsBuilder,
  TimeWindows,
  UnknownStateStoreError,
} from '@nest-streams/streams';
import { TopologyTestDriver } from './topology-test-driver';

interface Order {
  userId: string;
  amount: number;
}

/** The three kinds of DSL stores over one input: totals, 1-minute counts, session counts. */
function topology() {
  const builder = new StreamsBuilder();
  const grouped = builder
    .stream('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()))
    .groupByKey();
  grouped.aggregate(
    () => 0,
    (_key, order, total) => total + order.amount,
    Materialized.as<string, number>('totals').withValueSerde(Serdes.Json<number>()),
  );
  // Kept for an hour: the default retention (size + grace) would drop the first window.
  grouped
    .windowedBy(TimeWindows.ofSizeWithNoGrace(60_000))
    .count(Materialized.as<string, number>('per-minute').withRetention(3_600_000));
  grouped
    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(30_000))
    .count(Materialized.as<string, number>('sessions').withRetention(3_600_000));
  return builder.build();
}

describe('TopologyTestDriver: typed store getters', () => {
  let driver: TopologyTestDriver;
  beforeEach(async () => {
    driver = await TopologyTestDriver.create(topology(), { initialWallClockTimeMs: 500_000 });
    const orders = driver.createInputTopic('orders', Serdes.String(), Serdes.Json<Order>());
    await orders.pipeInput('alice', { userId: 'alice', amount: 10 }, 1_000);
    await orders.pipeInput('alice', { userId: 'alice', amount: 5 }, 20_000);
    await orders.pipeInput('alice', { userId: 'alice', amount: 1 }, 125_000);
  });
  afterEach(() => driver.close());

  it('shows a DSL key-value store with plain values, or with their timestamps', () => {
    expect(driver.getKeyValueStore<string, number>('totals').get('alice')).toBe(16);
    expect(driver.getTimestampedKeyValueStore<string, number>('totals').get('alice')).toEqual({
      value: 16,
      timestamp: 125_000,
    });
  });

  it('writes through the plain view with the wall clock as timestamp', () => {
    driver.getKeyValueStore<string, number>('totals').put('bob', 7);
    expect(driver.getTimestampedKeyValueStore<string, number>('totals').get('bob')).toEqual({
      value: 7,
      timestamp: 500_000,
    });
    expect(driver.getKeyValueStore<string, number>('totals').delete('bob')).toBe(7);
  });

  it('shows window stores with plain values', async () => {
    const windows = driver.getWindowStore<string, number>('per-minute');
    expect(windows.fetch('alice', 0)).toBe(2);
    expect(windows.fetch('alice', 120_000)).toBe(1);
    expect(await windows.fetchWindowsAsync('alice', 0, 180_000)).toEqual([
      { key: 0, value: 2 },
      { key: 120_000, value: 1 },
    ]);
  });

  it('shows window stores with the timestamps of the records that wrote them', () => {
    const windows = driver.getTimestampedWindowStore<string, number>('per-minute');
    expect(windows.fetch('alice', 0)).toEqual({ value: 2, timestamp: 20_000 });
    expect(windows.fetch('alice', 120_000)).toEqual({ value: 1, timestamp: 125_000 });
  });

  it('shows session stores', () => {
    const sessions = driver.getSessionStore<string, number>('sessions');
    expect(sessions.fetchSession('alice', 1_000, 20_000)).toBe(2);
    expect(sessions.fetchSession('alice', 125_000, 125_000)).toBe(1);
  });

  it('refuses a store of another kind, naming the getter to use', () => {
    expect(() => driver.getKeyValueStore('per-minute')).toThrow(
      new UnknownStateStoreError(
        "state store 'per-minute' is a window store, not a key-value store: use getWindowStore",
      ),
    );
    expect(() => driver.getWindowStore('sessions')).toThrow(
      "state store 'sessions' is a session store, not a window store: use getSessionStore",
    );
    expect(() => driver.getSessionStore('totals')).toThrow(
      "state store 'totals' is a key-value store, not a session store: use getKeyValueStore (or getTimestampedKeyValueStore)",
    );
    expect(() => driver.getKeyValueStore('nowhere')).toThrow(
      "the topology has no state store named 'nowhere'",
    );
  });
});

describe('TopologyTestDriver: plain stores', () => {
  it('refuses the timestamped view of a store that keeps plain values', async () => {
    const builder = new StreamsBuilder();
    builder.addStateStore(
      // A Processor-API store: plain values.
      Stores.keyValueStoreBuilder(
        Stores.inMemoryKeyValueStore('plain'),
        Serdes.String(),
        Serdes.Long(),
      ),
    );
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
      .process(() => ({ process: () => undefined }), undefined, 'plain');
    const driver = await TopologyTestDriver.create(builder.build());
    try {
      driver.getKeyValueStore<string, number>('plain').put('k', 3);
      expect(driver.getKeyValueStore<string, number>('plain').get('k')).toBe(3);
      expect(() => driver.getTimestampedKeyValueStore('plain')).toThrow(
        "state store 'plain' keeps plain values, without timestamps: use getKeyValueStore",
      );
    } finally {
      await driver.close();
    }
  });
});

describe('TopologyTestDriver: a record cache of 0 bytes', () => {
  it('strips the caching layers, as Kafka Streams does: every update goes downstream as it happens', async () => {
    const builder = new StreamsBuilder();
    const sessionKey = new SessionWindowedSerde(Serdes.String());
    builder
      .stream('clicks', Consumed.with(Serdes.String(), Serdes.String()))
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .reduce((a, b) => `${a}${b}`, Materialized.as<string, string>('sessions'))
      .toStream()
      .to('out', Produced.with(sessionKey, Serdes.String()));
    const driver = await TopologyTestDriver.create(builder.build(), {
      config: { statestoreCacheMaxBytes: 0 },
    });
    try {
      const clicks = driver.createInputTopic('clicks', Serdes.String(), Serdes.String());
      // A session reduced to null: a caching layer would drop the delete of a session its
      // store never held; without one it is forwarded, as Kafka Streams' uncached store does.
      await clicks.pipeInput('k', null, 20);
      const out = driver.createOutputTopic('out', sessionKey, Serdes.String());
      expect(out.readRecordsToList().map((r) => [r.key?.toString(), r.value])).toEqual([
        ['[k@20/20]', null],
      ]);
    } finally {
      await driver.close();
    }
  });
});
