import {
  Consumed,
  Materialized,
  Serdes,
  StreamsBuilder,
  type Topology,
} from '@nest-streams/streams';
import type { BenchEventValue } from './bench-types';

/** The name of the `i`-th count store of the memory topology (as the Java peer's). */
export function countStoreName(i: number): string {
  return `count-store-${String(i).padStart(3, '0')}`;
}

/**
 * The `memory` scenario's topology, as the Java peer's: `stores` counts per user over the same
 * input, each into its own persistent (RocksDB), cached store without a changelog, so every
 * store holds the same keys and values and no changelog producer weighs on the figures.
 */
export function memoryTopology(inputTopic: string, stores: number): Topology {
  const builder = new StreamsBuilder();
  const events = builder.stream(
    inputTopic,
    Consumed.with(Serdes.String(), Serdes.Json<BenchEventValue>()),
  );
  for (let i = 0; i < stores; i++) {
    events
      .groupByKey()
      .count(
        Materialized.as<string, number>(countStoreName(i))
          .withKeySerde(Serdes.String())
          .withValueSerde(Serdes.Long())
          .withLoggingDisabled(),
      );
  }
  return builder.build();
}
