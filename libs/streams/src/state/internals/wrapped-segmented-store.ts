import type { BytesStoreCapabilities, BytesWrite } from '../bytes-store';
import type { RestoreBatchResult } from './segmented-bytes.store';

/** A write by store key, with the timestamp to log it with (the current record's if absent). */
export interface TimestampedBytesWrite extends BytesWrite {
  readonly timestamp?: number;
}

/** What window and session bytes stores share, engines and layers alike. */
export interface SegmentedBytesLayer {
  readonly name: string;
  readonly capabilities: BytesStoreCapabilities;
  readonly retentionPeriodMs: number;
  readonly segmentIntervalMs: number;

  open(): Promise<void>;
  isOpen(): boolean;
  /** The largest segment time (window start, session end) written or restored since open. */
  observedStreamTime(): number;
  /** Applies one batch of changelog records (store keys), skipping expired ones. */
  restoreAll(records: readonly BytesWrite[]): RestoreBatchResult;
  /**
   * Writes entries by store key (the changelog's keys, as `restoreAll`), in order and as if
   * put one by one (stream time grows, expired writes are dropped), but as one engine batch
   * per segment; each layer does its part (the change-logging layer logs what was written).
   * What a cache flush writes through.
   * @returns per write, whether it was written (false: past retention).
   */
  putAll(writes: readonly TimestampedBytesWrite[]): boolean[];
  approximateNumEntries(): number;
  flush(): Promise<void>;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A layer over a window or session bytes store (change-logging, caching) that passes
 * everything it does not change to the store below: a layer overrides only its concern.
 * Restores go straight to the store below (a cache is empty while its task restores; a
 * changelog is not written back to while it is read).
 */
export abstract class WrappedSegmentedStore<
  S extends SegmentedBytesLayer,
> implements SegmentedBytesLayer {
  constructor(readonly inner: S) {}

  get name(): string {
    return this.inner.name;
  }

  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }

  get retentionPeriodMs(): number {
    return this.inner.retentionPeriodMs;
  }

  get segmentIntervalMs(): number {
    return this.inner.segmentIntervalMs;
  }

  /** Opens the store below. @throws what it throws (the engine's `ProcessorStateError`). */
  open(): Promise<void> {
    return this.inner.open();
  }

  isOpen(): boolean {
    return this.inner.isOpen();
  }

  observedStreamTime(): number {
    return this.inner.observedStreamTime();
  }

  restoreAll(records: readonly BytesWrite[]): RestoreBatchResult {
    return this.inner.restoreAll(records);
  }

  putAll(writes: readonly TimestampedBytesWrite[]): boolean[] {
    return this.inner.putAll(writes);
  }

  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }

  /** Flushes the store below. @throws the engine's `ProcessorStateError` on failure. */
  flush(): Promise<void> {
    return this.inner.flush();
  }

  /** Flushes and closes the store below. Idempotent. */
  close(): Promise<void> {
    return this.inner.close();
  }

  /** Closes the store below and deletes its data. */
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
