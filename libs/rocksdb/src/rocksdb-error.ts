/** RocksDB's status codes, as `rocksdb::Status::Code` names them. */
export type RocksDBStatus =
  | 'NotFound'
  | 'Corruption'
  | 'NotSupported'
  | 'InvalidArgument'
  | 'IOError'
  | 'MergeInProgress'
  | 'Incomplete'
  | 'ShutdownInProgress'
  | 'TimedOut'
  | 'Aborted'
  | 'Busy'
  | 'Expired'
  | 'TryAgain'
  | 'CompactionTooLarge'
  | 'ColumnFamilyDropped'
  | 'Unknown';

/**
 * A RocksDB call failed: `status` is RocksDB's status code, `message` RocksDB's own text
 * (e.g. `IO error: lock hold by current process ... LOCK: No locks available`).
 *
 * What to do, by status:
 * - `IOError`: disk full, permissions, or the directory is locked by another open database
 *   (the same path opened twice, in this or another process): close the other one or fix the
 *   disk; retrying as such does not help;
 * - `Corruption`: the files are damaged: destroy the database and rebuild it (for a state store,
 *   restore it from its changelog);
 * - `InvalidArgument` / `NotSupported`: a programming or configuration error (e.g. SST keys not
 *   in ascending order, a compression this RocksDB was built without): fix the call;
 * - `Busy`, `TryAgain`, `TimedOut`, `Incomplete`: transient: retry;
 * - `ShutdownInProgress` / `Aborted`: the database is closing: stop using it.
 */
export class RocksDBError extends Error {
  override readonly name = 'RocksDBError';
  readonly code = 'ROCKSDB_ERROR';

  constructor(
    message: string,
    /** RocksDB's status code. */
    readonly status: RocksDBStatus,
    /** RocksDB's status subcode (`rocksdb::Status::SubCode`), 0 when none. */
    readonly subcode: number,
    /** What was being done, e.g. `open /var/lib/state/store`, `write a batch`. */
    readonly operation: string,
  ) {
    super(message);
  }
}
