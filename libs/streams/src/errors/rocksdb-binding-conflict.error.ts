import { StreamsError } from './streams.error';

/**
 * A store asked for one npm RocksDB binding while the other one is already loaded in the
 * process. The two prebuilt binaries bundle different RocksDB versions (6.17 in `rocksdb`,
 * 9.x in `@nxtedition/rocksdb`) that export the same GNU-unique C++ symbols; the dynamic
 * linker merges them, so one library builds its objects in the other's memory. Observed: after
 * `@nxtedition/rocksdb` reads a table, the next `rocksdb` open aborts the process (RocksDB
 * assertion in `NewBloomFilterPolicy`, its `kAllUserModes` overwritten).
 *
 * What to do: use one RocksDB binding per process (every store of an application on the same
 * engine); run the other binding, e.g. in tests or benchmarks, in a separate process. Not
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
        'is already loaded in this process, and the two corrupt each other (they bundle ' +
        'different RocksDB versions with shared C++ symbols). Use one RocksDB binding per process.',
    );
  }
}
