import { StreamsError } from './streams.error';

/**
 * A store asked for one RocksDB binding while the other one is already loaded in the process.
 * `@nest-streams/rocksdb` links the system RocksDB (7.8 on Debian 12) and `@nxtedition/rocksdb`
 * bundles its own (9.7); both export the same GNU-unique C++ symbols, which the dynamic linker
 * merges, so one library would build its objects in the other's memory.
 *
 * What to do: use one RocksDB engine per process (nest-streams chooses it once, before the first
 * store opens; `NEST_STREAMS_ROCKSDB_DISABLE=1` forces the fallback); do not load the other
 * binding yourself, and run it, e.g. in tests or benchmarks, in a separate process. Not
 * retriable.
 */
export class RocksDBBindingConflictError extends StreamsError {
  readonly code = 'ROCKSDB_BINDING_CONFLICT';
  readonly retriable = false;

  constructor(
    /** The store that was opening. */
    readonly storeName: string,
    /** The binding the store needs. */
    readonly binding: string,
    /** The binding already loaded in the process. */
    readonly loadedBinding: string,
  ) {
    super(
      `State store '${storeName}' cannot load the ${binding} RocksDB binding: ${loadedBinding} ` +
        'is already loaded in this process, and the two corrupt each other (they link ' +
        'different RocksDB versions with shared C++ symbols). Use one RocksDB binding per process.',
    );
  }
}
