// The engine's port for reading partitions it was not assigned through a consumer group: the
// restore consumer and the standby reader. Client adapters implement it (kafkajs: its broker
// fetch, in ./kafkajs/kafkajs-assigned-reader.ts).
import type { ChangelogRecord } from '../processor/state-store-context';
import type { RecordHeaders } from './wire-format/record-headers';

export type { RecordHeaders } from './wire-format/record-headers';

/** A partition and the offset to fetch it from. */
export interface PartitionFetchPosition {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** One record a fetch returned: a committed data record (never a control record). */
export interface FetchedRecord extends Omit<ChangelogRecord, 'key' | 'timestamp'> {
  readonly key: Buffer | null;
  readonly offset: number;
  readonly timestamp: number;
  /**
   * The record's headers, when the reader was asked for them
   * ({@link AssignedPartitionReaderOptions.headers}); absent otherwise.
   */
  readonly headers?: RecordHeaders;
}

/** What one fetch returned for one partition. */
export interface FetchedPartition {
  readonly topic: string;
  readonly partition: number;
  /** The offset this fetch asked from. */
  readonly fetchOffset: number;
  /**
   * The partition's records at or after `fetchOffset`, in offset order, read_committed: records
   * of aborted transactions and control records (transaction markers) are left out.
   */
  readonly records: readonly FetchedRecord[];
  /**
   * Where the next fetch of this partition starts: one past the last offset the broker returned,
   * whether a record, an aborted record or a marker; `fetchOffset` when it returned nothing.
   */
  readonly nextOffset: number;
  /** The partition's high watermark as the leader reported it. */
  readonly highWatermark: number;
  /** The last stable offset (the end a read_committed reader can reach); -1 when unknown. */
  readonly lastStableOffset: number;
}

/** Options of an {@link AssignedPartitionReader}. */
export interface AssignedPartitionReaderOptions {
  /** How long the leader may hold a fetch that has no data yet; default 250 ms. */
  readonly maxWaitTimeMs?: number;
  /** Bytes per partition per fetch; default 10 MiB. */
  readonly maxBytesPerPartition?: number;
  /** Bytes per fetch response (one per leader); default 50 MiB. */
  readonly maxBytes?: number;
  /**
   * Whether each fetched record batch's CRC-32C is checked (Java's `check.crcs`); default true.
   * A batch that fails it fails the fetch with a {@link CorruptRecordBatchError}.
   */
  readonly checkCrcs?: boolean;
  /**
   * Whether each record's headers are decoded into {@link FetchedRecord.headers}, in the shape
   * kafkajs hands its consumers ({@link RecordHeaders}); default false (restores and standbys
   * need none, and skip their bytes). A reader whose records are processed asks for them.
   */
  readonly headers?: boolean;
}

/** {@link AssignedPartitionReaderOptions} with every default filled in. */
export type ResolvedReaderOptions = Required<AssignedPartitionReaderOptions>;

/** The options with the defaults documented on {@link AssignedPartitionReaderOptions}. */
export function resolveReaderOptions(
  options: AssignedPartitionReaderOptions = {},
): ResolvedReaderOptions {
  return {
    maxWaitTimeMs: options.maxWaitTimeMs ?? 250,
    maxBytesPerPartition: options.maxBytesPerPartition ?? 10_485_760,
    maxBytes: options.maxBytes ?? 52_428_800,
    checkCrcs: options.checkCrcs ?? true,
    headers: options.headers ?? false,
  };
}

/**
 * Reads partitions at offsets the caller keeps, with no consumer group (Java's `assign` +
 * `seek` + `poll`), read_committed. One {@link fetch} asks every partition's leader once, in
 * parallel; the caller moves each position to `nextOffset`.
 *
 * Errors of {@link fetch}: a leader that moved is looked up again and its partitions come back
 * with no records in this round (the next fetch reaches the new leader);
 * {@link PartitionOffsetOutOfRangeError} when a position is outside the log;
 * {@link CorruptRecordBatchError} (retriable) when a batch fails its CRC check, and no
 * partition's records are returned (fetch again: a batch that fails every time is corrupt on
 * the broker); any other error (the cluster unreachable, an authorization failure) is thrown as
 * the client reports it, and the positions are unchanged: fetch again, or give up.
 */
export interface AssignedPartitionReader {
  fetch(positions: readonly PartitionFetchPosition[]): Promise<FetchedPartition[]>;
  /** Closes the reader's connections; a fetch in flight fails. */
  close(): Promise<void>;
}

/** Creates a reader; `undefined` when the client cannot read by assignment (the group path). */
export type AssignedPartitionReaderFactory = (
  options?: AssignedPartitionReaderOptions,
) => AssignedPartitionReader | undefined;
