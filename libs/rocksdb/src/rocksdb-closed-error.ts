/**
 * A database, iterator, cache, write-buffer manager or SST writer was used after it was closed
 * (or, for a database, before `open()` resolved or after `close()` was called).
 *
 * What to do: a programming error in the caller: open a new one, and stop using closed
 * objects. Closing a database closes its iterators: an iterator that outlived its database
 * throws this too.
 */
export class RocksDBClosedError extends Error {
  override readonly name = 'RocksDBClosedError';
  readonly code = 'ROCKSDB_CLOSED';
}
