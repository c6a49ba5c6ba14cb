import type { Serde } from '../serde/serde';
import type { InferredSerde } from './serde-inference';
import { validateName } from './named';

/**
 * How a stream is grouped (Kafka Streams' `Grouped`): the serdes of the repartition topic
 * (and the default serdes of the aggregate's store) and the repartition name. With a name
 * `n`, an automatic repartition uses topic `<applicationId>-n-repartition` and nodes
 * `n-repartition-sink|filter|source`; `groupBy` also names its key-selecting processor `n`.
 * Name it: generated names shift when the topology changes, and with them the topics.
 *
 * @example stream.groupBy((k, v) => v.userId, Grouped.with('by-user', Serdes.String(), json))
 */
export class Grouped<K, V> {
  private constructor(
    readonly name: string | undefined,
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined,
  ) {}

  /** Grouping with these serdes and a generated name (Kafka Streams' `with(keySerde, valueSerde)`). */
  static with<K, V>(keySerde: InferredSerde<K>, valueSerde?: InferredSerde<V>): Grouped<K, V>;
  /**
   * Named grouping with optional serdes; pass `undefined` as the name for a generated one.
   *
   * @throws TopologyError for an illegal name: choose another.
   */
  static with<K, V>(
    name: string | undefined,
    keySerde?: InferredSerde<K>,
    valueSerde?: InferredSerde<V>,
  ): Grouped<K, V>;
  static with<K, V>(
    nameOrKeySerde: string | undefined | InferredSerde<K>,
    keyOrValueSerde?: InferredSerde<K> | InferredSerde<V>,
    valueSerde?: InferredSerde<V>,
  ): Grouped<K, V> {
    if (typeof nameOrKeySerde === 'object') {
      return new Grouped<K, V>(undefined, nameOrKeySerde, keyOrValueSerde as InferredSerde<V>);
    }
    const name = nameOrKeySerde === undefined ? undefined : validateName(nameOrKeySerde);
    return new Grouped(name, keyOrValueSerde as InferredSerde<K> | undefined, valueSerde);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  static as<K, V>(name: string): Grouped<K, V> {
    return new Grouped<K, V>(validateName(name), undefined, undefined);
  }

  static keySerde<K, V>(keySerde: InferredSerde<K>): Grouped<K, V> {
    return new Grouped<K, V>(undefined, keySerde, undefined);
  }

  static valueSerde<K, V>(valueSerde: InferredSerde<V>): Grouped<K, V> {
    return new Grouped<K, V>(undefined, undefined, valueSerde);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(name: string): Grouped<K, V> {
    return new Grouped(validateName(name), this.keySerde, this.valueSerde);
  }

  withKeySerde(keySerde: InferredSerde<K>): Grouped<K, V> {
    return new Grouped(this.name, keySerde, this.valueSerde);
  }

  withValueSerde(valueSerde: InferredSerde<V>): Grouped<K, V> {
    return new Grouped(this.name, this.keySerde, valueSerde);
  }
}
