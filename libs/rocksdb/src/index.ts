/**
 * @nest-streams/rocksdb: the system RocksDB for nest-streams' state stores, through a small
 * Node-API addon built at install. See README.md for what to install.
 */
export { Cache, type CacheOptions } from './cache';
export type {
  Compression,
  IteratorOptions,
  OpenOptions,
  SstFileInfo,
  SstFileWriterOptions,
  WriteOptions,
} from './options';
export { RocksDB } from './rocksdb';
export { RocksDBClosedError } from './rocksdb-closed-error';
export { RocksDBError, type RocksDBStatus } from './rocksdb-error';
export { RocksDBIterator } from './rocksdb-iterator';
export { ROCKSDB_INSTALL_HINT, RocksDBUnavailableError } from './rocksdb-unavailable-error';
export type { RocksDBEntry } from './internals/packed';
export { SstFileWriter } from './sst-file-writer';
export { WriteBatch } from './write-batch';
export { WriteBufferManager } from './write-buffer-manager';
export { isRocksDBAvailable, rocksdbVersion, supportedCompressions } from './addon-info';
