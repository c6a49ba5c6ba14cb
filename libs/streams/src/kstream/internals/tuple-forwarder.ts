import type { ProcessorContext } from '../../processor/processor-context';
import { Record } from '../../processor/record';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import { change, type Change } from './change';

/** A flushed cache entry, typed: key, new value (`null`: deleted), old value, timestamp. */
export type FlushedToRecord<SK, SV, K, V> = (
  key: SK,
  newValue: SV | null,
  oldValue: SV | null | undefined,
  timestamp: number,
) => Record<K, Change<V>> | undefined;

/** The part of a store with a caching layer the forwarder uses (the metered stores have it). */
interface FlushListenable<SK, SV> {
  setFlushListener(
    listener: (key: SK, newValue: SV | null, oldValue: SV | null | undefined, ts: number) => void,
    sendOldValues: boolean,
  ): boolean;
}

function isFlushListenable<SK, SV>(store: unknown): store is FlushListenable<SK, SV> {
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof (store as { setFlushListener?: unknown }).setFlushListener === 'function'
  );
}

/**
 * Decides where a stateful DSL processor's KTable updates are emitted (Kafka Streams'
 * `TimestampedTupleForwarder`): with caching on, the store's cache emits them when it
 * flushes (on commit or eviction: one update per key per flush, same-key writes collapsed),
 * so `maybeForward` does nothing; with caching off, `maybeForward` forwards at once.
 * Without `sendOldValues`, updates carry `oldValue: null`.
 *
 * Forwarding from a flush happens outside `process`, through the processor's own context.
 */
export class TupleForwarder<SK, SV, K, V> {
  /**
   * True when `maybeForward` leaves forwarding to the store's cache (caching enabled on the
   * store), or when the processor has no children (nothing to forward to).
   */
  readonly cachingEnabled: boolean;

  constructor(
    store: unknown,
    private readonly context: ProcessorContext<K, Change<V>>,
    private readonly sendOldValues: boolean,
    toRecord: FlushedToRecord<SK, SV, K, V>,
  ) {
    if (context.hasChildren?.() === false) {
      // Nothing downstream: neither the cache's flushes nor writes are forwarded, so the store
      // keeps no listener (its flushes then neither type entries nor read old values).
      this.cachingEnabled = true;
      return;
    }
    this.cachingEnabled =
      isFlushListenable<SK, SV>(store) &&
      store.setFlushListener((key, newValue, oldValue, timestamp) => {
        const record = toRecord(key, newValue, sendOldValues ? oldValue : null, timestamp);
        if (record !== undefined) context.forward(record);
      }, sendOldValues);
  }

  /**
   * The forwarder of a store of `ValueAndTimestamp`s (a KTable's, a windowed aggregate's): a
   * flushed entry becomes the change of the plain values, at the new value's timestamp (the
   * flush's timestamp for a delete).
   */
  static ofTimestampedValues<K, V>(
    store: unknown,
    context: ProcessorContext<K, Change<V>>,
    sendOldValues: boolean,
  ): TupleForwarder<K, ValueAndTimestamp<V>, K, V> {
    return new TupleForwarder<K, ValueAndTimestamp<V>, K, V>(
      store,
      context,
      sendOldValues,
      (key, newValue, oldValue, timestamp) =>
        new Record(
          key,
          change(newValue?.value ?? null, oldValue?.value ?? null),
          newValue?.timestamp ?? timestamp,
        ),
    );
  }

  /** Forwards `record` unless the cache will emit it on flush. */
  maybeForward(record: Record<K, Change<V>>): void {
    if (this.cachingEnabled) return;
    const value = record.value;
    this.context.forward(
      this.sendOldValues || value.oldValue === null
        ? record
        : record.withValue(change(value.newValue, null)),
    );
  }
}
