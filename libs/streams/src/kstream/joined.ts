import type { Serde } from '../serde/serde';
import type { InferredSerde } from './serde-inference';
import { validateName } from './named';

/**
 * Options of a stream-table join (Kafka Streams' `Joined`): the serdes of the stream side's
 * repartition topic (when the stream's key changed before the join) and the join's name,
 * which names the join processor and the repartition topic (`<name>-repartition`).
 */
export class Joined<K, V, VO> {
  private constructor(
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined,
    readonly otherValueSerde: Serde<VO> | undefined,
    readonly name: string | undefined,
  ) {}

  static with<K, V, VO>(
    keySerde?: InferredSerde<K>,
    valueSerde?: InferredSerde<V>,
    otherValueSerde?: InferredSerde<VO>,
  ): Joined<K, V, VO> {
    return new Joined(keySerde, valueSerde, otherValueSerde, undefined);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  static as<K, V, VO>(name: string): Joined<K, V, VO> {
    return new Joined<K, V, VO>(undefined, undefined, undefined, validateName(name));
  }

  withKeySerde(keySerde: InferredSerde<K>): Joined<K, V, VO> {
    return new Joined(keySerde, this.valueSerde, this.otherValueSerde, this.name);
  }

  withValueSerde(valueSerde: InferredSerde<V>): Joined<K, V, VO> {
    return new Joined(this.keySerde, valueSerde, this.otherValueSerde, this.name);
  }

  withOtherValueSerde(otherValueSerde: InferredSerde<VO>): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, otherValueSerde, this.name);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(name: string): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, this.otherValueSerde, validateName(name));
  }
}
