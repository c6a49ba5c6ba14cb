import type { BytesStoreCapabilities } from '../../bytes-store';
import type { SegmentFactory } from './key-value-segments';

/** How a segmented store finds the time of a store key: window start, or session end. */
export interface SegmentedKeySchema {
  /**
   * The time deciding the key's segment and its expiry.
   *
   * @throws InvalidWindowedKeyError for bytes that are not a key of this schema.
   */
  segmentTimestamp(storeKey: Buffer): number;
}

/** Outcome of applying one batch of changelog records. */
export interface RestoreBatchResult {
  /** Records written to a segment (tombstones included). */
  readonly applied: number;
  /** Records skipped because they were already past retention. */
  readonly skippedExpired: number;
}

/** Options shared by the segmented window and session stores. */
export interface SegmentedBytesStoreOptions {
  /** The store's name (its changelog is `<application.id>-<name>-changelog`). */
  readonly name: string;
  /** How long entries stay, in ms of stream time past their segment time. */
  readonly retentionPeriodMs: number;
  /** Width of a segment; default `max(retention / 2, 60 000)`, as Kafka Streams. */
  readonly segmentIntervalMs?: number;
  /** Creates one segment's unopened bytes store from its name. */
  readonly segmentFactory: SegmentFactory;
  /**
   * What the engine the factory builds can do. `syncReads` decides whether this store's
   * synchronous reads work (otherwise they throw `UnsupportedStoreOperationError`).
   */
  readonly capabilities: BytesStoreCapabilities;
  /** Names of segments a previous run left (persistent engines must provide it). */
  readonly listSegmentNames?: () => Promise<readonly string[]>;
  /** See `KeyValueSegmentsOptions.onSegmentOpening`. */
  readonly onSegmentOpening?: (ready: Promise<void>) => void;
}
