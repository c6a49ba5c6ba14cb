import type { Serde } from '@nest-streams/streams';
import type { TestRecord } from './test-record';

/** Where a {@link TestOutputTopic} reads raw records from. */
export interface OutputSource {
  readRaw(topic: string): TestRecord<Buffer | null, Buffer | null> | undefined;
  remaining(topic: string): number;
}

/** Reads typed records of one output topic of a {@link TopologyTestDriver}, in order, once. */
export class TestOutputTopic<K, V> {
  constructor(
    readonly name: string,
    private readonly source: OutputSource,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {}

  /** The next record; throws when there is none (check {@link isEmpty}). */
  readRecord(): TestRecord<K | null, V | null> {
    const raw = this.source.readRaw(this.name);
    if (!raw) throw new Error(`no more records in output topic ${this.name}`);
    return {
      key: raw.key === null ? null : this.keySerde.deserialize(raw.key, this.name),
      value: raw.value === null ? null : this.valueSerde.deserialize(raw.value, this.name),
      timestamp: raw.timestamp,
      headers: raw.headers,
      partition: raw.partition,
      offset: raw.offset,
    };
  }

  readKeyValue(): { key: K | null; value: V | null } {
    const { key, value } = this.readRecord();
    return { key, value };
  }

  readValue(): V | null {
    return this.readRecord().value;
  }

  /** Every remaining record. */
  readRecordsToList(): TestRecord<K | null, V | null>[] {
    const out: TestRecord<K | null, V | null>[] = [];
    while (!this.isEmpty()) out.push(this.readRecord());
    return out;
  }

  readKeyValuesToList(): { key: K | null; value: V | null }[] {
    return this.readRecordsToList().map(({ key, value }) => ({ key, value }));
  }

  readValuesToList(): (V | null)[] {
    return this.readRecordsToList().map((r) => r.value);
  }

  /** The last value per key (a `null` value removes the key), like Kafka's `readKeyValuesToMap`. */
  readKeyValuesToMap(): Map<K | null, V> {
    const map = new Map<K | null, V>();
    for (const { key, value } of this.readRecordsToList()) {
      if (value === null) map.delete(key);
      else map.set(key, value);
    }
    return map;
  }

  getQueueSize(): number {
    return this.source.remaining(this.name);
  }

  isEmpty(): boolean {
    return this.getQueueSize() === 0;
  }
}
