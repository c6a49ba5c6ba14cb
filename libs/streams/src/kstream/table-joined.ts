import type { StreamPartitioner } from '../processor/stream-partitioner';
import { validateName } from './named';

/**
 * Options of a foreign-key table-table join (Kafka Streams' `TableJoined`): the join's name
 * (it names its processors, `<name>-subscription-registration-processor`..., its subscription
 * store and its topics `<applicationId>-<name>-subscription-registration-topic` and
 * `-subscription-response-topic`) and the partitioners of the two tables' topics, when one
 * of them is not partitioned by murmur2 of the key bytes (then the join must know how to find a
 * key's partition; each partitioner gets `null` for the value).
 *
 * Errors: `as` and `withName` throw `TopologyError` for an illegal name: choose another.
 */
export class TableJoined<K, KO> {
  private constructor(
    /** How this (the primary) table's topic is partitioned, when not by the default. */
    readonly partitioner: StreamPartitioner<K, null> | undefined,
    /** How the other (the foreign-key) table's topic is partitioned, when not by the default. */
    readonly otherPartitioner: StreamPartitioner<KO, null> | undefined,
    readonly name: string | undefined,
  ) {}

  static with<K, KO>(
    partitioner?: StreamPartitioner<K, null>,
    otherPartitioner?: StreamPartitioner<KO, null>,
  ): TableJoined<K, KO> {
    return new TableJoined(partitioner, otherPartitioner, undefined);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  static as<K, KO>(name: string): TableJoined<K, KO> {
    return new TableJoined<K, KO>(undefined, undefined, validateName(name));
  }

  withPartitioner(partitioner: StreamPartitioner<K, null>): TableJoined<K, KO> {
    return new TableJoined(partitioner, this.otherPartitioner, this.name);
  }

  withOtherPartitioner(otherPartitioner: StreamPartitioner<KO, null>): TableJoined<K, KO> {
    return new TableJoined(this.partitioner, otherPartitioner, this.name);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(name: string): TableJoined<K, KO> {
    return new TableJoined(this.partitioner, this.otherPartitioner, validateName(name));
  }
}
