import type { StreamPartitioner } from '../processor/stream-partitioner';
import type { Serde } from '../serde/serde';
import type { InferredSerde } from './serde-inference';
import { validateName } from './named';

/**
 * How a stream is written to a topic (Kafka Streams' `Produced`): key and value serdes (the
 * application's default serdes when omitted), a partitioner (murmur2 of the key bytes when
 * omitted, as Java clients) and the sink node's name. Immutable.
 *
 * @example stream.to('totals', Produced.with(Serdes.String(), Serdes.Long()))
 */
export class Produced<K, V> {
  private constructor(
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined,
    readonly partitioner: StreamPartitioner<K, V> | undefined,
    readonly processorName: string | undefined,
  ) {}

  static with<K, V>(
    keySerde?: InferredSerde<K>,
    valueSerde?: InferredSerde<V>,
    partitioner?: StreamPartitioner<K, V>,
  ): Produced<K, V> {
    return new Produced(keySerde, valueSerde, partitioner, undefined);
  }

  static streamPartitioner<K, V>(partitioner: StreamPartitioner<K, V>): Produced<K, V> {
    return new Produced<K, V>(undefined, undefined, partitioner, undefined);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  static as<K, V>(processorName: string): Produced<K, V> {
    return new Produced<K, V>(undefined, undefined, undefined, validateName(processorName));
  }

  withKeySerde(keySerde: InferredSerde<K>): Produced<K, V> {
    return new Produced(keySerde, this.valueSerde, this.partitioner, this.processorName);
  }

  withValueSerde(valueSerde: InferredSerde<V>): Produced<K, V> {
    return new Produced(this.keySerde, valueSerde, this.partitioner, this.processorName);
  }

  withStreamPartitioner(partitioner: StreamPartitioner<K, V>): Produced<K, V> {
    return new Produced(this.keySerde, this.valueSerde, partitioner, this.processorName);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(processorName: string): Produced<K, V> {
    return new Produced(
      this.keySerde,
      this.valueSerde,
      this.partitioner,
      validateName(processorName),
    );
  }
}
