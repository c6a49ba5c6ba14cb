import {
  Consumed,
  EmitStrategy,
  JoinWindows,
  Materialized,
  Produced,
  SessionWindowedSerde,
  SessionWindows,
  SlidingWindows,
  StreamJoined,
  TimeWindowedSerde,
  TimeWindows,
} from '@nest-streams/streams';
import { keysOf, type DifferentialScenario } from '../../harness/scenario';
import { long, num, str } from '../serdes';

const HOUR = 3_600_000;

/** Stream-stream joins: inner, left and outer with grace, inner without. */
export const streamStreamJoinScenario: DifferentialScenario = {
  name: 'stream-stream-join',
  operators: 'KStream join, leftJoin, outerJoin KStream (JoinWindows with and without grace)',
  input: {
    topics: [
      { topic: 'left', keys: 5, values: 'number', tombstones: 0.05, nullKeys: 0.03 },
      { topic: 'right', keys: 5, values: 'word', tombstones: 0.05, nullKeys: 0.03 },
    ],
  },
  outputs: [
    { topic: 'out-join', key: 'string', value: 'string' },
    { topic: 'out-left-join', key: 'string', value: 'string' },
    { topic: 'out-outer-join', key: 'string', value: 'string' },
    { topic: 'out-join-no-grace', key: 'string', value: 'string' },
  ],
  stores: [],
  caching: 'on',
  build(builder) {
    const left = builder.stream('left', Consumed.with(str, str));
    const right = builder.stream('right', Consumed.with(str, str));
    const windows = JoinWindows.ofTimeDifferenceAndGrace(50, 20);
    const serdes = StreamJoined.with(str, str, str);
    left
      .join(right, (l, r) => `${l}+${r}`, windows, serdes)
      .to('out-join', Produced.with(str, str));
    left
      .leftJoin(right, (l, r) => `${l}+${r}`, windows, serdes)
      .to('out-left-join', Produced.with(str, str));
    left
      .outerJoin(right, (l, r) => `${l}+${r}`, windows, serdes)
      .to('out-outer-join', Produced.with(str, str));
    left
      .join(right, (l, r) => `${l}*${r}`, JoinWindows.ofTimeDifferenceWithNoGrace(30), serdes)
      .to('out-join-no-grace', Produced.with(str, str));
  },
};

/** Sliding windows: count with grace, aggregate without. */
export const slidingWindowsScenario: DifferentialScenario = {
  name: 'sliding-windows',
  operators: 'windowedBy(SlidingWindows) with and without grace + count, aggregate',
  input: {
    topics: [{ topic: 'events', keys: 5, values: 'number', tombstones: 0.05, nullKeys: 0.03 }],
  },
  outputs: [
    { topic: 'out-sliding-count', key: 'time-windowed:50', value: 'long' },
    { topic: 'out-sliding-sum', key: 'time-windowed:40', value: 'long' },
  ],
  stores: [
    { name: 'sliding-counts', kind: 'window' },
    { name: 'sliding-sums', kind: 'window' },
  ],
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    grouped
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(50, 30))
      .count(Materialized.as<string, number>('sliding-counts').withRetention(HOUR))
      .toStream()
      .to('out-sliding-count', Produced.with(new TimeWindowedSerde(str, 50), long));
    grouped
      .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(40))
      .aggregate(
        () => 0,
        (_k, v, sum) => sum + num(v),
        Materialized.as<string, number>('sliding-sums').withValueSerde(long).withRetention(HOUR),
      )
      .toStream()
      .to('out-sliding-sum', Produced.with(new TimeWindowedSerde(str, 40), long));
  },
};

/** EmitStrategy.onWindowClose on time and session windows; the wall clock advances too. */
export const emitOnWindowCloseScenario: DifferentialScenario = {
  name: 'emit-on-window-close',
  operators: 'EmitStrategy.onWindowClose on TimeWindows and SessionWindows',
  input: {
    topics: [{ topic: 'events', keys: 5, values: 'number', tombstones: 0.05, nullKeys: 0.03 }],
    wallClock: 0.05,
    wallClockMs: 1500,
  },
  outputs: [
    { topic: 'out-closed-count', key: 'time-windowed:100', value: 'long' },
    { topic: 'out-closed-session', key: 'session-windowed', value: 'long' },
  ],
  stores: [
    { name: 'closed-counts', kind: 'window' },
    { name: 'closed-sessions', kind: 'session', keys: keysOf(5) },
  ],
  caching: 'off',
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    grouped
      .windowedBy(TimeWindows.ofSizeAndGrace(100, 20))
      .emitStrategy(EmitStrategy.onWindowClose())
      .count(Materialized.as('closed-counts'))
      .toStream()
      .to('out-closed-count', Produced.with(new TimeWindowedSerde(str, 100), long));
    grouped
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(40, 10))
      .emitStrategy(EmitStrategy.onWindowClose())
      .count(Materialized.as('closed-sessions'))
      .toStream()
      .to('out-closed-session', Produced.with(new SessionWindowedSerde(str), long));
  },
};
