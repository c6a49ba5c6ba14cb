import type { RocksDBConfigSetter } from '@nest-streams/streams';

const MiB = 1024 * 1024;

/**
 * The `memory` scenario's per-store cap, the closest to Kafka Streams' bounded memory that the
 * npm RocksDB bindings allow (they cannot share a block cache or a write-buffer manager between
 * stores): a 1 MiB block cache holding the index and filter blocks, and 1 MiB memtables
 * (`@nxtedition/rocksdb` fixes their number at six). Memory still grows with every store.
 */
export const CAPPED_ROCKSDB: RocksDBConfigSetter = {
  setConfig(_storeName, options) {
    options.blockCacheSize = 1 * MiB;
    options.cacheIndexAndFilterBlocks = true;
    options.writeBufferSize = 1 * MiB;
  },
};

/** The settings of {@link CAPPED_ROCKSDB}, for the report. */
export const CAPPED_ROCKSDB_DESCRIPTION =
  'per store: 1 MiB block cache with index and filter blocks, 1 MiB write buffers (6 fixed)';
