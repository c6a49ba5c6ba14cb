import {
  BufferConfig,
  Consumed,
  Materialized,
  Produced,
  Suppressed,
  TimeWindowedSerde,
  TimeWindows,
} from '@nest-streams/streams';
import type { DifferentialScenario } from '../../harness/scenario';
import { long, str } from '../serdes';

/** suppress: final windowed counts, and a rate-limited count per key (emit early when full). */
export const suppressScenario: DifferentialScenario = {
  name: 'suppress',
  operators:
    'suppress(untilWindowCloses(unbounded)), suppress(untilTimeLimit(100 ms, maxRecords(3).emitEarlyWhenFull))',
  input: {
    topics: [{ topic: 'events', keys: 6, values: 'number', tombstones: 0.05, nullKeys: 0.03 }],
  },
  outputs: [
    { topic: 'out-final-counts', key: 'time-windowed:100', value: 'long' },
    { topic: 'out-rate-limited', key: 'string', value: 'long' },
  ],
  stores: [{ name: 'suppressed-counts', kind: 'kv' }],
  build(builder) {
    const grouped = builder.stream('events', Consumed.with(str, str)).groupByKey();
    grouped
      .windowedBy(TimeWindows.ofSizeAndGrace(100, 20))
      .count(Materialized.as('suppressed-window-counts'))
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .to('out-final-counts', Produced.with(new TimeWindowedSerde(str, 100), long));
    grouped
      .count(Materialized.as('suppressed-counts'))
      .suppress(Suppressed.untilTimeLimit(100, BufferConfig.maxRecords(3).emitEarlyWhenFull()))
      .toStream()
      .to('out-rate-limited', Produced.with(str, long));
  },
};

/** Table-table outer join, materialized. */
export const tableOuterJoinScenario: DifferentialScenario = {
  name: 'table-outer-join',
  operators: 'KTable outerJoin KTable (materialized)',
  input: {
    topics: [
      { topic: 'left', keys: 6, values: 'word', tombstones: 0.2 },
      { topic: 'right', keys: 6, values: 'number', tombstones: 0.2 },
    ],
  },
  outputs: [{ topic: 'out-outer', key: 'string', value: 'string' }],
  stores: [{ name: 'outer-join', kind: 'kv' }],
  build(builder) {
    const left = builder.table(
      'left',
      Consumed.with(str, str),
      Materialized.as<string, string>('outer-left-store'),
    );
    const right = builder.table(
      'right',
      Consumed.with(str, str),
      Materialized.as<string, string>('outer-right-store'),
    );
    left
      .outerJoin(
        right,
        (l, r) => `${l}+${r}`,
        undefined,
        Materialized.as<string, string>('outer-join'),
      )
      .toStream()
      .to('out-outer', Produced.with(str, str));
  },
};
