import type { ConsumedRecord } from '../../../client/consumed-record';

/**
 * The fetched records of one input partition a task holds and has not processed yet, in offset
 * order: the fetched batches as they came (never copied record by record).
 */
export class RecordQueue {
  private readonly chunks: (readonly ConsumedRecord[])[] = [];
  /** The index of the head in `chunks[0]`. */
  private index = 0;
  private count = 0;

  constructor(
    readonly topic: string,
    readonly partition: number,
  ) {}

  /** How many records it holds. */
  get size(): number {
    return this.count;
  }

  /** The next record to process, if any. */
  head(): ConsumedRecord | undefined {
    return this.chunks[0]?.[this.index];
  }

  /** Appends a fetched batch (its records follow those held, in offset order). */
  push(records: readonly ConsumedRecord[]): void {
    if (records.length === 0) return;
    this.chunks.push(records);
    this.count += records.length;
  }

  /** Removes and returns the head; call only when {@link size} is above 0. */
  shift(): ConsumedRecord {
    const chunk = this.chunks[0];
    const record = chunk[this.index++];
    this.advanced(chunk, 1);
    return record;
  }

  /** Removes up to `max` records from the head and appends them to `into`, in order. */
  moveTo(into: ConsumedRecord[], max: number): void {
    let left = max;
    while (left > 0 && this.count > 0) {
      const chunk = this.chunks[0];
      const end = Math.min(chunk.length, this.index + left);
      for (let i = this.index; i < end; i++) into.push(chunk[i]);
      const moved = end - this.index;
      this.index = end;
      left -= moved;
      this.advanced(chunk, moved);
    }
  }

  /** Drops every record held. */
  clear(): void {
    this.chunks.length = 0;
    this.index = 0;
    this.count = 0;
  }

  private advanced(chunk: readonly ConsumedRecord[], by: number): void {
    this.count -= by;
    if (this.index === chunk.length) {
      this.chunks.shift();
      this.index = 0;
    }
  }
}
