import {
  Consumed,
  Grouped,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  type Topology,
} from '@nest-streams/streams';
import type { OrderEvent, OrderStats } from './stats-topology';

/**
 * The source text's two aggregations with the DSL: count and sum per user into `stats-store`,
 * and a 5-minute tumbling count (no grace, 1 h retention) into `windowed-count-store`; stats
 * updates also go to `outputTopic` so downstream emission can be counted. `caching` applies
 * to both stores.
 */
export function dslTopology(inputTopic: string, outputTopic: string, caching: boolean): Topology {
  const builder = new StreamsBuilder();
  const grouped = builder
    .stream(inputTopic, Consumed.with(Serdes.String(), Serdes.Json<OrderEvent>()))
    .groupByKey(Grouped.with(undefined, Serdes.String(), Serdes.Json<OrderEvent>()));
  let stats = Materialized.as<string, OrderStats>('stats-store')
    .withKeySerde(Serdes.String())
    .withValueSerde(Serdes.Json<OrderStats>());
  stats = caching ? stats.withCachingEnabled() : stats.withCachingDisabled();
  grouped
    .aggregate(
      () => ({ count: 0, sum: 0 }),
      (_key, event, agg) => ({ count: agg.count + 1, sum: agg.sum + event.amount }),
      stats,
    )
    .toStream()
    .to(outputTopic, Produced.with(Serdes.String(), Serdes.Json<OrderStats>()));
  grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(5 * 60_000)).count(
    caching
      ? Materialized.as<string, number>('windowed-count-store').withRetention(60 * 60_000)
      : Materialized.as<string, number>('windowed-count-store')
          .withRetention(60 * 60_000)
          .withCachingDisabled(),
  );
  return builder.build();
}
