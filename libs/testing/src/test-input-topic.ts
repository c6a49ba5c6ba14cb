import type { Headers, Serde } from '@nest-streams/streams';

/** Where a {@link TestInputTopic} hands serialized records. */
export interface InputSink {
  pipe(
    topic: string,
    key: Buffer | null,
    value: Buffer | null,
    timestamp: number,
    headers: Headers,
  ): Promise<void>;
}

/**
 * Pipes typed records into one input topic of a {@link TopologyTestDriver}, as Kafka Streams'
 * `TestInputTopic`. Without an explicit timestamp a record gets the topic's current time, which
 * then advances by `autoAdvanceMs`.
 */
export class TestInputTopic<K, V> {
  private currentTime: number;

  constructor(
    readonly name: string,
    private readonly sink: InputSink,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    startTimestamp = 0,
    private readonly autoAdvanceMs = 0,
  ) {
    this.currentTime = startTimestamp;
  }

  /** Pipes one record and processes it (and everything it causes) before resolving. */
  async pipeInput(
    key: K | null,
    value: V | null,
    timestamp?: number,
    headers: Headers = {},
  ): Promise<void> {
    const ts = timestamp ?? this.nextTime();
    await this.sink.pipe(
      this.name,
      key === null ? null : this.keySerde.serialize(key, this.name),
      value === null ? null : this.valueSerde.serialize(value, this.name),
      ts,
      headers,
    );
  }

  /** Pipes raw bytes, e.g. a record that does not deserialize. */
  async pipeRaw(
    key: Buffer | null,
    value: Buffer | null,
    timestamp?: number,
    headers: Headers = {},
  ): Promise<void> {
    await this.sink.pipe(this.name, key, value, timestamp ?? this.nextTime(), headers);
  }

  /** Pipes records in order. */
  async pipeKeyValueList(
    entries: readonly { key: K | null; value: V | null; timestamp?: number }[],
  ): Promise<void> {
    for (const entry of entries) await this.pipeInput(entry.key, entry.value, entry.timestamp);
  }

  /** Moves the topic's current time forward. */
  advanceTime(ms: number): void {
    this.currentTime += ms;
  }

  private nextTime(): number {
    const ts = this.currentTime;
    this.currentTime += this.autoAdvanceMs;
    return ts;
  }
}
