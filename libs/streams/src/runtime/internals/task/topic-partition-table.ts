/**
 * Values by topic and partition, looked up without building a key string: a map of topics to
 * arrays indexed by partition. For the per-record paths (a task's offsets); partitions are
 * small non-negative integers.
 */
export class TopicPartitionTable<T> {
  private readonly topics = new Map<string, (T | undefined)[]>();
  private count = 0;

  get(topic: string, partition: number): T | undefined {
    return this.topics.get(topic)?.[partition];
  }

  set(topic: string, partition: number, value: T): void {
    let row = this.topics.get(topic);
    if (!row) this.topics.set(topic, (row = []));
    if (row[partition] === undefined) this.count++;
    row[partition] = value;
  }

  /** How many (topic, partition) entries hold a value. */
  get size(): number {
    return this.count;
  }

  /** Every value, by topic in insertion order, then by partition. */
  values(): T[] {
    const out: T[] = [];
    for (const row of this.topics.values()) for (const v of row) if (v !== undefined) out.push(v);
    return out;
  }

  clear(): void {
    this.topics.clear();
    this.count = 0;
  }
}
