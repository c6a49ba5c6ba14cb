// Runs a Jest process on the fallback RocksDB engine: the project's addon refuses to load, so
// every persistent store opens on @nxtedition/rocksdb (see rocksdb-engine-choice.ts).
process.env.NEST_STREAMS_ROCKSDB_DISABLE = '1';
