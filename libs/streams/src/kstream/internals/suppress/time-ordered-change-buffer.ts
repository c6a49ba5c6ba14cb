import { ProcessorStateError } from '../../../errors/processor-state.error';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { ChangelogRecord, StateStoreContext } from '../../../processor/state-store-context';
import type { StateStore } from '../../../processor/state-store';
import type { Serde } from '../../../serde/serde';
import { changelogTopicName } from '../../../state/internals/changelog-topic-name';
import { SortedKeyList } from '../../../state/internals/sorted-key-list';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp';
import { change, type Change } from '../change';
import {
  bufferedRecordSize,
  deserializeBufferValue,
  serializeBufferValue,
  type BufferedRecordContext,
  type BufferValue,
} from './buffer-value';

/** The changelog header of Kafka's buffer format version 3. */
const V3_HEADERS = { v: Buffer.from([3]) };
const OFFSET = 2n ** 63n;

/** A buffered key: its bytes and its place in the time order. */
interface IndexEntry {
  readonly key: Buffer;
  readonly sortKey: string;
  readonly time: number;
}

/** A buffered update as the buffer evicts it. */
export interface Eviction<K, V> {
  readonly key: K;
  readonly value: Change<V>;
  readonly context: BufferedRecordContext;
}

/**
 * The suppression buffer (Kafka Streams' `InMemoryTimeOrderedKeyValueChangeBuffer`): a state
 * store in memory holding the latest update of each key, ordered by buffer time (the time of
 * the key's first buffered update: a later update keeps that place), then key bytes. With
 * logging, every key changed since the last flush is written to
 * `<applicationId>-<store>-changelog` when the store flushes (on commit), in Kafka's format
 * version 3 (header `v` = 3), a tombstone for an evicted key; `init` registers the store for a
 * full restore from it.
 *
 * Errors: `init` throws `ProcessorStateError` when logging is on and the task has no record
 * collector (a runtime wiring bug); restoring a changelog record of another format throws
 * `SerializationError` (the changelog was not written by this format: delete it and its
 * application's state to start over).
 */
export class TimeOrderedChangeBuffer<K, V> implements StateStore {
  readonly persistent = false;
  private readonly index = new Map<string, IndexEntry>();
  private readonly order = new SortedKeyList();
  private readonly values = new Map<string, BufferValue>();
  private readonly dirty = new Set<string>();
  private memBufferSize = 0;
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  private changelogTopic = '';
  private open = false;

  constructor(
    readonly name: string,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    private readonly loggingEnabled: boolean,
  ) {}

  async init(context: StateStoreContext): Promise<void> {
    this.context = context;
    this.changelogTopic = changelogTopicName(context.applicationId, this.name);
    if (this.loggingEnabled) {
      if (!context.recordCollector) {
        const cause = new Error('logging is enabled but the task context has no record collector');
        throw new ProcessorStateError(this.name, 'init', cause);
      }
      this.collector = context.recordCollector;
    }
    this.clear();
    this.open = true;
    context.register({
      store: this,
      name: this.name,
      persistent: false,
      changelog: this.loggingEnabled
        ? { topic: this.changelogTopic, partition: context.taskId.partition }
        : undefined,
      restoreBatch: (records) => this.restoreBatch(records),
      wipe: async () => this.clear(),
    });
  }

  /** The number of buffered keys. */
  get numRecords(): number {
    return this.index.size;
  }

  /** Kafka's estimate of the buffer's size in bytes. */
  get bufferSize(): number {
    return this.memBufferSize;
  }

  /** The smallest buffer time, or `Number.MAX_SAFE_INTEGER` when empty. */
  get minTimestamp(): number {
    const first = this.order.ascending().next();
    return first.done ? Number.MAX_SAFE_INTEGER : this.index.get(keyOfSortKey(first.value))!.time;
  }

  /** Buffers `value` as the latest update of `key` (keeping the key's place when it waits). */
  put(time: number, key: K, value: Change<V>, context: BufferedRecordContext): void {
    const keyBytes = this.keySerde.serialize(key, this.changelogTopic);
    const k = keyBytes.toString('latin1');
    const oldValue = this.bytesOf(value.oldValue);
    const newValue = this.bytesOf(value.newValue);
    const buffered = this.valueOf(k);
    const buffer: BufferValue = buffered
      ? { priorValue: buffered.priorValue, oldValue, newValue, oldIsPrior: false, context }
      : { priorValue: oldValue, oldValue, newValue, oldIsPrior: true, context };
    this.cleanPut(time, keyBytes, buffer);
    if (this.loggingEnabled) this.dirty.add(k);
  }

  /**
   * Evicts the oldest buffered updates, oldest first, while `predicate` holds, handing each to
   * `callback` before it leaves the buffer.
   */
  evictWhile(predicate: () => boolean, callback: (eviction: Eviction<K, V>) => void): void {
    while (this.order.size > 0 && predicate()) {
      const sortKey = this.order.ascending().next().value as string;
      const k = keyOfSortKey(sortKey);
      const entry = this.index.get(k)!;
      const value = this.values.get(sortKey)!;
      callback({
        key: this.keySerde.deserialize(entry.key, this.changelogTopic),
        value: change(this.valueOfBytes(value.newValue), this.valueOfBytes(value.oldValue)),
        context: value.context,
      });
      this.remove(k);
      if (this.loggingEnabled) this.dirty.add(k);
    }
  }

  /**
   * The value downstream last saw for a buffered key (its value before its first buffered
   * update): `{ buffered: false }` when the key is not buffered; `value` undefined when the key
   * had no value.
   */
  priorValueForBuffered(key: K): { buffered: boolean; value?: ValueAndTimestamp<V> } {
    const k = this.keySerde.serialize(key, this.changelogTopic).toString('latin1');
    const buffered = this.valueOf(k);
    if (buffered === undefined) return { buffered: false };
    const prior = this.valueOfBytes(buffered.priorValue);
    return {
      buffered: true,
      value: prior === null ? undefined : { value: prior, timestamp: buffered.context.timestamp },
    };
  }

  /**
   * Writes every key changed since the last flush to the changelog (tombstones for evicted
   * ones), in key order.
   */
  async flush(): Promise<void> {
    const collector = this.collector;
    if (!collector || !this.context) return;
    const partition = this.context.taskId.partition;
    for (const k of [...this.dirty].sort()) {
      const entry = this.index.get(k);
      const key = Buffer.from(k, 'latin1');
      if (entry === undefined) {
        const timestamp = this.context.currentTimestamp();
        collector.send({ topic: this.changelogTopic, partition, key, value: null, timestamp });
        continue;
      }
      const value = this.values.get(entry.sortKey)!;
      collector.send({
        topic: this.changelogTopic,
        partition,
        key,
        value: serializeBufferValue(value, entry.time),
        timestamp: value.context.timestamp,
        headers: V3_HEADERS,
      });
    }
    this.dirty.clear();
  }

  /** Drops the buffer's contents (the task flushed it before, on a clean close). */
  async close(): Promise<void> {
    this.open = false;
    this.clear();
  }

  isOpen(): boolean {
    return this.open;
  }

  private restoreBatch(records: readonly ChangelogRecord[]): void {
    for (const record of records) {
      const k = record.key.toString('latin1');
      if (record.value === null) {
        this.remove(k);
        continue;
      }
      const { value, bufferTime } = deserializeBufferValue(record.value);
      this.cleanPut(bufferTime, Buffer.from(record.key), value);
    }
  }

  private cleanPut(time: number, key: Buffer, value: BufferValue): void {
    const k = key.toString('latin1');
    const existing = this.index.get(k);
    if (existing === undefined) {
      const sortKey = sortKeyOf(time, key);
      this.index.set(k, { key, sortKey, time });
      this.order.insert(sortKey);
      this.values.set(sortKey, value);
      this.memBufferSize += bufferedRecordSize(key, value);
      return;
    }
    const removed = this.values.get(existing.sortKey);
    this.values.set(existing.sortKey, value);
    this.memBufferSize += bufferedRecordSize(key, value);
    if (removed !== undefined) this.memBufferSize -= bufferedRecordSize(key, removed);
  }

  private remove(k: string): void {
    const entry = this.index.get(k);
    if (entry === undefined) return;
    const value = this.values.get(entry.sortKey);
    this.index.delete(k);
    this.order.remove(entry.sortKey);
    this.values.delete(entry.sortKey);
    if (value !== undefined) this.memBufferSize -= bufferedRecordSize(entry.key, value);
  }

  private valueOf(k: string): BufferValue | undefined {
    const entry = this.index.get(k);
    return entry === undefined ? undefined : this.values.get(entry.sortKey);
  }

  private bytesOf(value: V | null): Buffer | null {
    return value === null || value === undefined
      ? null
      : this.valueSerde.serialize(value, this.changelogTopic);
  }

  private valueOfBytes(bytes: Buffer | null): V | null {
    return bytes === null ? null : this.valueSerde.deserialize(bytes, this.changelogTopic);
  }

  private clear(): void {
    this.index.clear();
    this.order.clear();
    this.values.clear();
    this.dirty.clear();
    this.memBufferSize = 0;
  }
}

/** `[time, offset to sort signed times][key bytes]` as latin1: buffer time, then key bytes. */
function sortKeyOf(time: number, key: Buffer): string {
  const bytes = Buffer.allocUnsafe(8 + key.length);
  bytes.writeBigUInt64BE(BigInt(time) + OFFSET, 0);
  key.copy(bytes, 8);
  return bytes.toString('latin1');
}

function keyOfSortKey(sortKey: string): string {
  return sortKey.slice(8);
}
