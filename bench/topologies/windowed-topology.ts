import {
  Consumed,
  Materialized,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  type KStream,
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
  countPerWindow(
    builder.stream(inputTopic, Consumed.with(Serdes.String(), Serdes.Json<BenchEventValue>())),
    WINDOWED_STORE,
  );
  return builder.build();
}

/**
 * `events` counted per user in 5-minute tumbling windows without grace into the persistent
 * window store `name` (retention one hour), logged unless `logging` is false.
 */
export function countPerWindow(
  events: KStream<string, BenchEventValue>,
  name: string,
  logging = true,
): void {
  const materialized = Materialized.as<string, number>(name)
    .withKeySerde(Serdes.String())
    .withValueSerde(Serdes.Long())
    .withRetention(WINDOW_RETENTION_MS);
  events
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE_MS))
    .count(logging ? materialized : materialized.withLoggingDisabled());
}
