import type { TopicPartition } from '../processor/topic-partition';

/**
 * Progress of restoring stores from their changelogs, and global stores from their topics
 * (Kafka Streams' `StateRestoreListener`).
 * Called synchronously from the restore loop: keep the callbacks cheap. A callback that
 * throws fails the restore with `ChangelogRestoreError`.
 */
export interface StateRestoreListener {
  /**
   * A changelog partition starts restoring: `startOffset` is the first offset read (the
   * checkpoint + 1, or the log start), `endOffset` the log end captured at the start
   * (exclusive: the restore reads every record before it).
   */
  onRestoreStart?(
    topicPartition: TopicPartition,
    storeName: string,
    startOffset: number,
    endOffset: number,
  ): void;
  /**
   * One polled batch was written to the store; `batchEndOffset` is its last record's offset (for
   * a global store: the next offset to read after it, Kafka Streams' argument there).
   */
  onBatchRestored?(
    topicPartition: TopicPartition,
    storeName: string,
    batchEndOffset: number,
    numRestored: number,
  ): void;
  /** The partition reached its end offset; `totalRestored` records were written. */
  onRestoreEnd?(topicPartition: TopicPartition, storeName: string, totalRestored: number): void;
}
