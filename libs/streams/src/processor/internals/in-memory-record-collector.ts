import type { CollectedRecord, RecordCollector } from './record-collector';
import { topicPartitionKey, type TopicPartitionOffset } from '../topic-partition';

interface PartitionPosition {
  readonly topic: string;
  readonly partition: number;
  next: number;
  last: number | undefined;
}

/** A record the {@link InMemoryRecordCollector} accepted, with the offset it was given. */
export interface CollectedRecordWithOffset extends CollectedRecord {
  readonly offset: number;
}

/**
 * A {@link RecordCollector} that keeps every record in memory and acknowledges it at once,
 * giving offsets `0, 1, 2...` per partition (or from a chosen start). For unit tests and the
 * topology test driver; never loses or reorders a record.
 */
export class InMemoryRecordCollector implements RecordCollector {
  private readonly collected: CollectedRecordWithOffset[] = [];
  private readonly positions = new Map<string, PartitionPosition>();
  private flushes = 0;

  /** Every record accepted so far, in order. */
  get records(): readonly CollectedRecordWithOffset[] {
    return this.collected;
  }

  /** How many times `flush` was called. */
  get flushCount(): number {
    return this.flushes;
  }

  /** The records accepted for one topic (and partition, when given), in order. */
  recordsFor(topic: string, partition?: number): CollectedRecordWithOffset[] {
    return this.collected.filter(
      (r) => r.topic === topic && (partition === undefined || r.partition === partition),
    );
  }

  /** Makes the next record of a partition get `offset` (to mimic an existing topic). */
  startAt(topic: string, partition: number, offset: number): void {
    const position = this.position(topic, partition);
    position.next = offset;
  }

  send(record: CollectedRecord): void {
    const position = this.position(record.topic, record.partition);
    const offset = position.next++;
    position.last = offset;
    this.collected.push({ ...record, offset });
  }

  flush(): Promise<void> {
    this.flushes++;
    return Promise.resolve();
  }

  offset(topic: string, partition: number): number | undefined {
    return this.positions.get(topicPartitionKey(topic, partition))?.last;
  }

  offsets(): TopicPartitionOffset[] {
    const result: TopicPartitionOffset[] = [];
    for (const { topic, partition, last } of this.positions.values()) {
      if (last !== undefined) result.push({ topic, partition, offset: last });
    }
    return result;
  }

  private position(topic: string, partition: number): PartitionPosition {
    const key = topicPartitionKey(topic, partition);
    let position = this.positions.get(key);
    if (!position) {
      position = { topic, partition, next: 0, last: undefined };
      this.positions.set(key, position);
    }
    return position;
  }

  /** Forgets every record (offsets keep counting). */
  clear(): void {
    this.collected.length = 0;
  }
}
