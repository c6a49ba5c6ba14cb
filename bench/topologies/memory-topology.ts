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
 * With `dropAll`, every record is consumed and decoded but filtered out before the counts: the
 * same process with the same input and the same open stores, left empty.
 */
export function memoryTopology(inputTopic: string, stores: number, dropAll = false): Topology {
  const builder = new StreamsBuilder();
  const consumed = builder.stream(
    inputTopic,
    Consumed.with(Serdes.String(), Serdes.Json<BenchEventValue>()),
  );
  const events = dropAll ? consumed.filter(() => false) : consumed;
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
