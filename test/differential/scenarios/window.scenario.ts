import {
  Consumed,
  Materialized,
  Produced,
  SessionWindowedSerde,
  SessionWindows,
  TimeWindowedSerde,
  TimeWindows,
} from '@nest-streams/streams';
import { keysOf, type DifferentialScenario } from '../harness/scenario';
import { long, num, str } from './serdes';

/**
 * Retention of the windowed stores under caching: longer than any case, so nothing expires.
 * With caching on, Kafka Streams' window and session stores answer from clean cache entries
 * without their retention check (expired windows stay visible, and expired sessions still
 * merge, until the cache evicts them); ours applies retention the same with or without a
 * cache. Expiry itself is compared without caching (`windowedExpiryScenario`).
 */
const HOUR = 3_600_000;

const windowedInput = {
  topics: [
    { topic: 'events', keys: 5, values: 'number', tombstones: 0.05, nullKeys: 0.03 },
  ] as const,
  timeStep: 20,
};

/** Tumbling windows without grace, hopping windows with grace, a short window with long grace. */
export const timeWindowsScenario: DifferentialScenario = {
  name: 'time-windows',
  operators:
    'windowedBy(TimeWindows): tumbling no grace, hopping with grace + count, aggregate, reduce',
  input: windowedInput,
  outputs: [
    { topic: 'out-tumbling', key: 'time-windowed:100', value: 'long' },
    { topic: 'out-hopping', key: 'time-windowed:100', value: 'long' },
    { topic: 'out-grace-reduce', key: 'time-windowed:60', value: 'string' },
  ],
  stores: [
    { name: 'tumbling-counts', kind: 'window' },
    { name: 'hopping-sums', kind: 'window' },
    { name: 'grace-reduce', kind: 'window' },
  ],
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    grouped
      .windowedBy(TimeWindows.ofSizeWithNoGrace(100))
      .count(Materialized.as<string, number>('tumbling-counts').withRetention(HOUR))
      .toStream()
      .to('out-tumbling', Produced.with(new TimeWindowedSerde(str, 100), long));
    grouped
      .windowedBy(TimeWindows.ofSizeAndGrace(100, 50).advanceBy(40))
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + num(v),
        Materialized.as<string, number>('hopping-sums').withValueSerde(long).withRetention(HOUR),
      )
      .toStream()
      .to('out-hopping', Produced.with(new TimeWindowedSerde(str, 100), long));
    grouped
      .windowedBy(TimeWindows.ofSizeAndGrace(60, 200))
      .reduce(
        (a, b) => `${a},${b}`,
        Materialized.as<string, string>('grace-reduce').withRetention(HOUR),
      )
      .toStream()
      .to('out-grace-reduce', Produced.with(new TimeWindowedSerde(str, 60), str));
  },
};

/** Session windows with and without grace: merges emit tombstones for the merged sessions. */
export const sessionWindowsScenario: DifferentialScenario = {
  name: 'session-windows',
  operators: 'windowedBy(SessionWindows) with and without grace + count, reduce, aggregate',
  input: windowedInput,
  outputs: [
    { topic: 'out-session-count', key: 'session-windowed', value: 'long' },
    { topic: 'out-session-reduce', key: 'session-windowed', value: 'string' },
    { topic: 'out-session-sum', key: 'session-windowed', value: 'long' },
  ],
  stores: [
    { name: 'session-counts', kind: 'session', keys: keysOf(5) },
    { name: 'session-reduce', kind: 'session', keys: keysOf(5) },
    { name: 'session-sums', kind: 'session', keys: keysOf(5) },
  ],
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    const sessionKey = new SessionWindowedSerde(str);
    grouped
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(50, 20))
      .count(Materialized.as<string, number>('session-counts').withRetention(HOUR))
      .toStream()
      .to('out-session-count', Produced.with(sessionKey, long));
    grouped
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(30))
      .reduce(
        (a, b) => `${a},${b}`,
        Materialized.as<string, string>('session-reduce').withRetention(HOUR),
      )
      .toStream()
      .to('out-session-reduce', Produced.with(sessionKey, str));
    grouped
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(40, 100))
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + num(v),
        (_k, a, b) => a + b,
        Materialized.as<string, number>('session-sums').withValueSerde(long).withRetention(HOUR),
      )
      .toStream()
      .to('out-session-sum', Produced.with(sessionKey, long));
  },
};

/** Windows and sessions past their default retention (size + grace, gap + grace): no cache. */
export const windowedExpiryScenario: DifferentialScenario = {
  name: 'windowed-expiry',
  operators: 'time and session windows at default retention: late records, expired windows',
  input: windowedInput,
  outputs: [
    { topic: 'out-expiry-tumbling', key: 'time-windowed:100', value: 'long' },
    { topic: 'out-expiry-hopping', key: 'time-windowed:100', value: 'string' },
    { topic: 'out-expiry-session', key: 'session-windowed', value: 'long' },
  ],
  stores: [
    { name: 'expiry-tumbling', kind: 'window' },
    { name: 'expiry-hopping', kind: 'window' },
    { name: 'expiry-session', kind: 'session', keys: keysOf(5) },
  ],
  caching: 'off',
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    grouped
      .windowedBy(TimeWindows.ofSizeWithNoGrace(100))
      .count(Materialized.as('expiry-tumbling'))
      .toStream()
      .to('out-expiry-tumbling', Produced.with(new TimeWindowedSerde(str, 100), long));
    grouped
      .windowedBy(TimeWindows.ofSizeAndGrace(100, 30).advanceBy(50))
      .reduce((a, b) => `${a},${b}`, Materialized.as('expiry-hopping'))
      .toStream()
      .to('out-expiry-hopping', Produced.with(new TimeWindowedSerde(str, 100), str));
    grouped
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(40, 20))
      .count(Materialized.as('expiry-session'))
      .toStream()
      .to('out-expiry-session', Produced.with(new SessionWindowedSerde(str), long));
  },
};
