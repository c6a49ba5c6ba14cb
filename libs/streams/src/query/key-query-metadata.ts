import { HostInfo } from '../cluster/host-info';

/**
 * How `queryMetadataForKey` turns a key into its partition: a serializer (its bytes are
 * partitioned with murmur2, as Java's producer does: pass the store's key serde) or a
 * partitioner function (for topics written with a custom partitioner).
 */
export type KeyPartitioning<K> =
  { serialize(key: K): Buffer } | ((key: K, numPartitions: number) => number);

/**
 * Where a key of a store lives (Kafka Streams' `KeyQueryMetadata`): the active host, the
 * hosts with a standby copy, and the partition. {@link KeyQueryMetadata.NOT_AVAILABLE} while
 * no confirmed owner exists (a rebalance is in progress): answer 503 and retry. A key of a
 * global store lives on the asking instance itself, with no standbys and partition
 * {@link KeyQueryMetadata.UNKNOWN_PARTITION} (every instance holds the store whole).
 */
export class KeyQueryMetadata {
  /** The partition of a global store's key: none, the store is whole (Java's -1). */
  static readonly UNKNOWN_PARTITION = -1;
  static readonly NOT_AVAILABLE = new KeyQueryMetadata(
    HostInfo.UNAVAILABLE,
    [],
    KeyQueryMetadata.UNKNOWN_PARTITION,
  );

  constructor(
    readonly activeHost: HostInfo,
    readonly standbyHosts: readonly HostInfo[],
    readonly partition: number,
  ) {}

  /**
   * False for {@link KeyQueryMetadata.NOT_AVAILABLE}: neither a host nor a partition (a
   * global store's key has a host and no partition).
   */
  get available(): boolean {
    return this.partition >= 0 || !this.activeHost.equals(HostInfo.UNAVAILABLE);
  }

  toJSON(): { activeHost: string; standbyHosts: string[]; partition: number } {
    return {
      activeHost: this.activeHost.toString(),
      standbyHosts: this.standbyHosts.map((h) => h.toString()),
      partition: this.partition,
    };
  }
}
