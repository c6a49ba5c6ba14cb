import type { TimestampExtractor } from '../processor/timestamp-extractor';
import type { Serde } from '../serde/serde';
import type { InferredSerde } from './serde-inference';
import { validateName } from './named';

/**
 * How a source topic is read (Kafka Streams' `Consumed`): key and value serdes (the
 * application's default serdes when omitted), the timestamp extractor and the source node's
 * name. Immutable: each `with...` returns a copy.
 *
 * @example builder.stream('labs.events', Consumed.with(Serdes.String(), Serdes.Json<Event>()))
 */
export class Consumed<K, V> {
  private constructor(
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined,
    readonly timestampExtractor: TimestampExtractor<K, V> | undefined,
    readonly processorName: string | undefined,
  ) {}

  /** Reads keys and values with these serdes. */
  static with<K, V>(keySerde?: InferredSerde<K>, valueSerde?: InferredSerde<V>): Consumed<K, V> {
    return new Consumed(keySerde, valueSerde, undefined, undefined);
  }

  /** Default serdes, this event-time extractor. */
  static withTimestampExtractor<K, V>(extractor: TimestampExtractor<K, V>): Consumed<K, V> {
    return new Consumed<K, V>(undefined, undefined, extractor, undefined);
  }

  /**
   * Default serdes, the source node named `processorName`.
   *
   * @throws TopologyError for an illegal name: choose another.
   */
  static as<K, V>(processorName: string): Consumed<K, V> {
    return new Consumed<K, V>(undefined, undefined, undefined, validateName(processorName));
  }

  withKeySerde(keySerde: InferredSerde<K>): Consumed<K, V> {
    return new Consumed(keySerde, this.valueSerde, this.timestampExtractor, this.processorName);
  }

  withValueSerde(valueSerde: InferredSerde<V>): Consumed<K, V> {
    return new Consumed(this.keySerde, valueSerde, this.timestampExtractor, this.processorName);
  }

  withTimestampExtractor(extractor: TimestampExtractor<K, V>): Consumed<K, V> {
    return new Consumed(this.keySerde, this.valueSerde, extractor, this.processorName);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(processorName: string): Consumed<K, V> {
    return new Consumed(
      this.keySerde,
      this.valueSerde,
      this.timestampExtractor,
      validateName(processorName),
    );
  }
}
