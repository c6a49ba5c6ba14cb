import {
  Consumed,
  Materialized,
  Serdes,
  StreamsBuilder,
  type KStream,
  type Topology,
} from '@nest-streams/streams';
import type { BenchEventValue } from './bench-types';
import { countPerWindow } from './windowed-topology';

/** Every fifth store of the memory topology (indices 4, 9, 14, ...) is a windowed count. */
export const WINDOWED_EVERY = 5;

/** Whether the `i`-th store of the memory topology is windowed (as the Java peer's). */
export function isWindowedStore(i: number): boolean {
  return i % WINDOWED_EVERY === WINDOWED_EVERY - 1;
}

/** The name of the `i`-th store of the memory topology (as the Java peer's). */
export function memoryStoreName(i: number): string {
  const index = String(i).padStart(3, '0');
  return isWindowedStore(i) ? `windowed-count-store-${index}` : `count-store-${index}`;
}

/** How many of `stores` stores are key-value counts and how many windowed counts. */
export function memoryStoreKinds(stores: number): { keyValue: number; windowed: number } {
  const windowed = Math.floor(stores / WINDOWED_EVERY);
  return { keyValue: stores - windowed, windowed };
}

/**
 * The `memory` scenario's topology, as the Java peer's: `stores` stores over the same input,
 * each persistent (RocksDB) and without a changelog, so that no changelog producer weighs on
 * the figures. Every fifth store ({@link isWindowedStore}) counts per user in 5-minute tumbling
 * windows without grace (retention one hour, as the `windowed` scenario's); the others count
 * per user into a cached key-value store. So every key-value store holds the same keys and
 * values, and every windowed store the same windows.
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
    if (isWindowedStore(i)) countPerWindow(events, memoryStoreName(i), false);
    else countPerUser(events, memoryStoreName(i));
  }
  return builder.build();
}

function countPerUser(events: KStream<string, BenchEventValue>, name: string): void {
  events
    .groupByKey()
    .count(
      Materialized.as<string, number>(name)
        .withKeySerde(Serdes.String())
        .withValueSerde(Serdes.Long())
        .withLoggingDisabled(),
    );
}
