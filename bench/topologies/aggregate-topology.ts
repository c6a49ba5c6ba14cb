import {
  Consumed,
  Materialized,
  Serdes,
  StreamsBuilder,
  type Topology,
} from '@nest-streams/streams';
import { STATS_STORE, type BenchEventValue, type BenchStats } from './bench-types';

/**
 * The `aggregate` scenario's topology, as the Java peer's: JSON events keyed by user,
 * `groupByKey().aggregate(count + sum)` into the persistent (RocksDB), cached, logged
 * `stats-store`.
 */
export function aggregateTopology(inputTopic: string): Topology {
  const builder = new StreamsBuilder();
  builder
    .stream(inputTopic, Consumed.with(Serdes.String(), Serdes.Json<BenchEventValue>()))
    .groupByKey()
    .aggregate<BenchStats>(
      () => ({ count: 0, sum: 0 }),
      (_userId, event, stats) => ({ count: stats.count + 1, sum: stats.sum + event.amount }),
      Materialized.as<string, BenchStats>(STATS_STORE)
        .withKeySerde(Serdes.String())
        .withValueSerde(Serdes.Json<BenchStats>()),
    );
  return builder.build();
}
