import { TopologyError } from '../errors/topology.error';
import type { StreamPartitioner } from '../processor/stream-partitioner';
import type { Serde } from '../serde/serde';
import type { InferredSerde } from './serde-inference';
import { validateName } from './named';

/**
 * How `KStream.repartition` writes its topic (Kafka Streams' `Repartitioned`): the name (the
 * topic is `<applicationId>-<name>-repartition`), serdes, a fixed partition count (else the
 * upstream source topics' count) and a partitioner. Immutable.
 */
export class Repartitioned<K, V> {
  private constructor(
    readonly name: string | undefined,
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined,
    readonly numberOfPartitions: number | undefined,
    readonly partitioner: StreamPartitioner<K, V> | undefined,
  ) {}

  /** @throws TopologyError for an illegal name: choose another. */
  static as<K, V>(name: string): Repartitioned<K, V> {
    return new Repartitioned<K, V>(validateName(name), undefined, undefined, undefined, undefined);
  }

  static with<K, V>(
    keySerde?: InferredSerde<K>,
    valueSerde?: InferredSerde<V>,
  ): Repartitioned<K, V> {
    return new Repartitioned(undefined, keySerde, valueSerde, undefined, undefined);
  }

  /** @throws TopologyError unless `n` is a positive integer: fix the count. */
  static numberOfPartitions<K, V>(n: number): Repartitioned<K, V> {
    return new Repartitioned<K, V>(undefined, undefined, undefined, checkCount(n), undefined);
  }

  static streamPartitioner<K, V>(partitioner: StreamPartitioner<K, V>): Repartitioned<K, V> {
    return new Repartitioned<K, V>(undefined, undefined, undefined, undefined, partitioner);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(name: string): Repartitioned<K, V> {
    return this.copy({ name: validateName(name) });
  }

  withKeySerde(keySerde: InferredSerde<K>): Repartitioned<K, V> {
    return this.copy({ keySerde });
  }

  withValueSerde(valueSerde: InferredSerde<V>): Repartitioned<K, V> {
    return this.copy({ valueSerde });
  }

  /** @throws TopologyError unless `n` is a positive integer: fix the count. */
  withNumberOfPartitions(n: number): Repartitioned<K, V> {
    return this.copy({ numberOfPartitions: checkCount(n) });
  }

  withStreamPartitioner(partitioner: StreamPartitioner<K, V>): Repartitioned<K, V> {
    return this.copy({ partitioner });
  }

  private copy(change: Partial<Repartitioned<K, V>>): Repartitioned<K, V> {
    return new Repartitioned(
      'name' in change ? change.name : this.name,
      'keySerde' in change ? change.keySerde : this.keySerde,
      'valueSerde' in change ? change.valueSerde : this.valueSerde,
      'numberOfPartitions' in change ? change.numberOfPartitions : this.numberOfPartitions,
      'partitioner' in change ? change.partitioner : this.partitioner,
    );
  }
}

function checkCount(n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new TopologyError(`number of partitions must be a positive integer, got ${n}`);
  }
  return n;
}
