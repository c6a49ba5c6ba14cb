import {
  Consumed,
  Materialized,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  type Topology,
} from '@nest-streams/streams';
import {
  WINDOWED_STORE,
  WINDOW_RETENTION_MS,
  WINDOW_SIZE_MS,
  type BenchEventValue,
} from './bench-types';

/**
 * The `windowed` scenario's topology, as the Java peer's: count per user in 5-minute tumbling
 * windows without grace, in the persistent, cached, logged `windowed-count-store` (retention
 * one hour).
 */
export function windowedTopology(inputTopic: string): Topology {
  const builder = new StreamsBuilder();
  builder
    .stream(inputTopic, Consumed.with(Serdes.String(), Serdes.Json<BenchEventValue>()))
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE_MS))
    .count(
      Materialized.as<string, number>(WINDOWED_STORE)
        .withKeySerde(Serdes.String())
        .withValueSerde(Serdes.Long())
        .withRetention(WINDOW_RETENTION_MS),
    );
  return builder.build();
}
