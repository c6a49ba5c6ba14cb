import type { Headers } from '@nest-streams/streams';

/** A record waiting to be processed by the driver. */
export interface QueuedRecord {
  readonly topic: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly timestamp: number;
  readonly headers: Headers;
}

/** One topic's waiting records, oldest first. */
interface TopicQueue {
  readonly records: QueuedRecord[];
}

/**
 * The records waiting for the driver, one FIFO queue per topic, taken as Kafka Streams' task
 * takes them (its `PartitionGroup`): next from the queue whose head record has the smallest
 * timestamp, ties broken as `java.util.PriorityQueue` breaks them (a binary heap of the
 * non-empty queues, keyed by their head's timestamp when they entered it).
 */
export class RecordQueues {
  private readonly byTopic = new Map<string, TopicQueue>();
  /** The non-empty queues, as a binary min-heap on their head's timestamp. */
  private readonly heap: TopicQueue[] = [];

  add(record: QueuedRecord): void {
    let queue = this.byTopic.get(record.topic);
    if (!queue) {
      queue = { records: [] };
      this.byTopic.set(record.topic, queue);
    }
    queue.records.push(record);
    if (queue.records.length === 1) this.offer(queue);
  }

  /** The next record to process, or `undefined` when none waits. */
  poll(): QueuedRecord | undefined {
    const queue = this.heap[0];
    if (!queue) return undefined;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) this.siftDown(0, last);
    const record = queue.records.shift()!;
    if (queue.records.length > 0) this.offer(queue);
    return record;
  }

  private offer(queue: TopicQueue): void {
    let k = this.heap.length;
    this.heap.push(queue);
    while (k > 0) {
      const parent = (k - 1) >>> 1;
      if (headTime(queue) >= headTime(this.heap[parent])) break;
      this.heap[k] = this.heap[parent];
      k = parent;
    }
    this.heap[k] = queue;
  }

  private siftDown(start: number, queue: TopicQueue): void {
    const n = this.heap.length;
    let k = start;
    while (k < n >>> 1) {
      let child = 2 * k + 1;
      if (child + 1 < n && headTime(this.heap[child]) > headTime(this.heap[child + 1])) child++;
      if (headTime(queue) <= headTime(this.heap[child])) break;
      this.heap[k] = this.heap[child];
      k = child;
    }
    this.heap[k] = queue;
  }
}

function headTime(queue: TopicQueue): number {
  return queue.records[0].timestamp;
}
