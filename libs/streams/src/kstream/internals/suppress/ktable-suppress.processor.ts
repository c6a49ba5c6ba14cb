import type { Processor, ProcessorSupplier } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import { Record } from '../../../processor/record';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp';
import type { BufferFullStrategy } from '../../suppressed';
import type { Change } from '../change';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from '../ktable-value-getter';
import type { BufferedRecordContext } from './buffer-value';
import type { Eviction, TimeOrderedChangeBuffer } from './time-ordered-change-buffer';

/** How one suppression behaves (Kafka Streams' `SuppressedInternal`). */
export interface SuppressionSpec<K> {
  /** The processor's name (in the buffer-full error). */
  readonly name: string;
  readonly storeName: string;
  /** How long after its buffer time an update is emitted, in ms of stream time. */
  readonly suppressDurationMs: number;
  /** The buffer time of an update: its window's end, or its record's timestamp. */
  bufferTime(key: K, timestamp: number): number;
  readonly maxRecords: number;
  readonly maxBytes: number;
  readonly bufferFullStrategy: BufferFullStrategy;
  /** Final results drop deletes; a time limit emits them. */
  readonly safeToDropTombstones: boolean;
}

/**
 * `KTable.suppress` (Kafka Streams' `KTableSuppressProcessor`): buffers each update (the latest
 * per key), then emits the updates whose buffer time is `suppressDuration` behind stream time
 * (the largest timestamp this processor saw), oldest first, with the record context (timestamp,
 * headers) of their latest update. Over a bound, an eager buffer emits its oldest updates
 * early; a strict one fails the task.
 *
 * Errors: a strict buffer past its bound throws (the task fails: give the buffer room, or
 * choose `emitEarlyWhenFull`).
 */
export class KTableSuppressProcessor<K, V> implements Processor<K, Change<V>, K, Change<V>> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, Change<V>>;
  private buffer!: TimeOrderedChangeBuffer<K, V>;
  private observedStreamTime = -1;

  constructor(private readonly spec: SuppressionSpec<K>) {}

  init(context: ProcessorContext<K, Change<V>>): void {
    this.context = context;
    this.buffer = context.getStateStore<TimeOrderedChangeBuffer<K, V>>(this.spec.storeName);
  }

  process(record: Record<K, Change<V>>): void {
    this.observedStreamTime = Math.max(this.observedStreamTime, record.timestamp);
    const metadata = this.context.recordMetadata();
    const context: BufferedRecordContext = {
      timestamp: record.timestamp,
      offset: metadata?.offset ?? -1,
      topic: metadata?.topic ?? '',
      partition: metadata?.partition ?? -1,
      headers: record.headers,
    };
    this.buffer.put(
      this.spec.bufferTime(record.key, record.timestamp),
      record.key,
      record.value,
      context,
    );
    this.enforceConstraints();
  }

  private enforceConstraints(): void {
    const { spec, buffer } = this;
    const expiryTime = this.observedStreamTime - spec.suppressDurationMs;
    const emit = (eviction: Eviction<K, V>): void => this.emit(eviction);
    buffer.evictWhile(() => buffer.minTimestamp <= expiryTime, emit);
    if (!this.overCapacity()) return;
    if (spec.bufferFullStrategy === 'EMIT') {
      buffer.evictWhile(() => this.overCapacity(), emit);
      return;
    }
    throw new Error(
      `${spec.name} buffer exceeded its max capacity. Currently [${buffer.numRecords}/${javaLong(spec.maxRecords)}] records and [${buffer.bufferSize}/${javaLong(spec.maxBytes)}] bytes.`,
    );
  }

  private overCapacity(): boolean {
    return (
      this.buffer.numRecords > this.spec.maxRecords || this.buffer.bufferSize > this.spec.maxBytes
    );
  }

  private emit({ key, value, context }: Eviction<K, V>): void {
    if (value.newValue === null && this.spec.safeToDropTombstones) return;
    this.context.forward(new Record(key, value, context.timestamp, context.headers));
  }
}

/** Reads a suppressed table: a buffered key's prior value, else the parent table's row. */
class KTableSuppressValueGetter<K, V> implements KTableValueGetter<K, V> {
  private buffer!: TimeOrderedChangeBuffer<K, V>;

  constructor(
    private readonly parent: KTableValueGetter<K, V>,
    private readonly storeName: string,
  ) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.parent.init(context);
    this.buffer = context.getStateStore<TimeOrderedChangeBuffer<K, V>>(this.storeName);
  }

  get(key: K): ValueAndTimestamp<V> | undefined {
    const prior = this.buffer.priorValueForBuffered(key);
    return prior.buffered ? prior.value : this.parent.get(key);
  }

  prefetch(keys: readonly K[]): Promise<void> {
    return this.parent.prefetch(keys);
  }
}

/**
 * The KTable node of a suppression: the parent table sends old values (the buffer keeps what
 * downstream saw), rows read through the buffer.
 */
export class KTableSuppressSupplier<K, V> implements KTableProcessorSupplier<K, V> {
  constructor(
    private readonly parent: KTableProcessorSupplier<K, V>,
    private readonly spec: SuppressionSpec<K>,
  ) {
    parent.enableSendingOldValues(true);
  }

  processorSupplier(): ProcessorSupplier<K, Change<V>, K, Change<V>> {
    return () => new KTableSuppressProcessor<K, V>(this.spec);
  }

  view(): KTableValueGetterSupplier<K, V> {
    const parent = this.parent.view();
    return {
      get: () => new KTableSuppressValueGetter(parent.get(), this.spec.storeName),
      storeNames: () => [...parent.storeNames(), this.spec.storeName],
    };
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    return this.parent.enableSendingOldValues(forceMaterialization);
  }
}

/** A bound as Kafka Streams prints it: no bound is `Long.MAX_VALUE`. */
function javaLong(bound: number): string {
  return bound === Number.MAX_SAFE_INTEGER ? '9223372036854775807' : String(bound);
}
