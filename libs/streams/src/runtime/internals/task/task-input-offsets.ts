import type { ConsumedRecord } from '../../../client/consumed-record';
import { TopicPartitionTable } from './topic-partition-table';

/** One input partition's offset. */
export interface InputOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

interface MutableOffset {
  readonly topic: string;
  readonly partition: number;
  offset: number;
}

/**
 * A task's input offsets: its position per input partition (the next offset to process, kept
 * across commits) and what it consumed since the last commit (what the commit covers).
 *
 * The position is what lets a task skip records it already processed: kafkajs fetches again
 * from the committed offset after a rebalance, and reads committed offsets without KIP-447's
 * `require_stable`, so a task may be handed records its state already holds.
 */
export class TaskInputOffsets {
  private readonly consumed = new TopicPartitionTable<MutableOffset>();
  private readonly positions = new TopicPartitionTable<MutableOffset>();

  /** Whether `record` is below this task's position (already processed): skip it. */
  alreadyProcessed(record: ConsumedRecord): boolean {
    const position = this.positions.get(record.topic, record.partition);
    return position !== undefined && record.offset < position.offset;
  }

  /** Records `record` as processed (or skipped as bad input): position and commit advance. */
  markConsumed(record: ConsumedRecord): void {
    const { topic, partition, offset } = record;
    const position = this.positions.get(topic, partition);
    if (position) position.offset = Math.max(position.offset, offset + 1);
    else this.positions.set(topic, partition, { topic, partition, offset: offset + 1 });
    const consumed = this.consumed.get(topic, partition);
    if (consumed) consumed.offset = Math.max(consumed.offset, offset);
    else this.consumed.set(topic, partition, { topic, partition, offset });
  }

  /**
   * Moves the position of a partition whose records up to `lastRecordOffset` were all consumed
   * past the offsets after them that hold no record to process (transaction markers, aborted
   * records), to `nextOffset`; the next commit covers them too, so a transactional input shows
   * no lag of 1 per transaction (as Kafka Streams commits the consumer's position, KAFKA-6607).
   * Does nothing while a record up to `lastRecordOffset` is unconsumed.
   */
  skipTo(topic: string, partition: number, lastRecordOffset: number, nextOffset: number): void {
    const position = this.positions.get(topic, partition);
    if (!position || position.offset <= lastRecordOffset) return;
    position.offset = Math.max(position.offset, nextOffset);
    const consumed = this.consumed.get(topic, partition);
    if (consumed) consumed.offset = Math.max(consumed.offset, nextOffset - 1);
  }

  /**
   * Moves positions forward to `offsets` (the committed ones, read after the task's
   * transactional producer fenced the previous owner); never backward. Negative offsets (none
   * committed) are ignored.
   */
  seed(offsets: readonly InputOffset[]): void {
    for (const { topic, partition, offset } of offsets) {
      if (offset < 0) continue;
      const current = this.positions.get(topic, partition);
      if (!current || current.offset < offset) {
        this.positions.set(topic, partition, { topic, partition, offset });
      }
    }
  }

  /** Next offset to process per input partition (for read-your-writes position bounds). */
  positionList(): InputOffset[] {
    return this.positions.values().map((p) => ({ ...p }));
  }

  /** Next offsets to commit per input partition (offset of the last consumed record + 1). */
  toCommit(): InputOffset[] {
    return this.consumed.values().map((c) => ({ ...c, offset: c.offset + 1 }));
  }

  /** Whether anything was consumed since the last {@link TaskInputOffsets.committed}. */
  get uncommitted(): boolean {
    return this.consumed.size > 0;
  }

  /** The offsets of {@link TaskInputOffsets.toCommit} were committed. */
  committed(): void {
    this.consumed.clear();
  }
}
