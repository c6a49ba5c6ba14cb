import { Admin, FetchIsolationLevels, ListOffsetTimestamps } from '@platformatic/kafka';

/**
 * Tells whether a transaction holds partitions open: a partition whose last stable offset (the
 * end a read_committed reader sees) is below its high watermark has records of a transaction
 * that has neither committed nor aborted yet. With the partitions of a frozen member's tasks
 * (written only by it), that is the member's own transaction.
 */
export class OpenTransactionProbe {
  private readonly admin: Admin;

  constructor(brokers: readonly string[]) {
    this.admin = new Admin({ clientId: 'open-transaction-probe', bootstrapBrokers: [...brokers] });
  }

  /** `topic/partition` of each of `partitions` of `topics` an open transaction holds. */
  async openPartitions(
    topics: readonly string[],
    partitions: readonly number[],
  ): Promise<string[]> {
    const ends = (isolationLevel: 0 | 1) =>
      this.admin.listOffsets({
        topics: topics.map((name) => ({
          name,
          partitions: partitions.map((partitionIndex) => ({
            partitionIndex,
            timestamp: ListOffsetTimestamps.LATEST,
          })),
        })),
        isolationLevel,
      });
    const [stable, high] = await Promise.all([
      ends(FetchIsolationLevels.READ_COMMITTED),
      ends(FetchIsolationLevels.READ_UNCOMMITTED),
    ]);
    const highOf = new Map(
      high.flatMap((t) => t.partitions.map((p) => [`${t.name}/${p.partitionIndex}`, p.offset])),
    );
    return stable
      .flatMap((t) => t.partitions.map((p) => [`${t.name}/${p.partitionIndex}`, p.offset] as const))
      .filter(([key, offset]) => offset < (highOf.get(key) ?? offset))
      .map(([key]) => key);
  }

  async close(): Promise<void> {
    await this.admin.close();
  }
}
