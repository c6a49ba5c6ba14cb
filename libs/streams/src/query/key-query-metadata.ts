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
 * no confirmed owner exists (a rebalance is in progress): answer 503 and retry.
 */
export class KeyQueryMetadata {
  static readonly NOT_AVAILABLE = new KeyQueryMetadata(HostInfo.UNAVAILABLE, [], -1);

  constructor(
    readonly activeHost: HostInfo,
    readonly standbyHosts: readonly HostInfo[],
    readonly partition: number,
  ) {}

  /** False for {@link KeyQueryMetadata.NOT_AVAILABLE}. */
  get available(): boolean {
    return this.partition >= 0;
  }

  toJSON(): { activeHost: string; standbyHosts: string[]; partition: number } {
    return {
      activeHost: this.activeHost.toString(),
      standbyHosts: this.standbyHosts.map((h) => h.toString()),
      partition: this.partition,
    };
  }
}
