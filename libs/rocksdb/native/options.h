// Database options from the JS options object of `open()`.
#pragma once

#include <napi.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

namespace nsr {

struct OpenConfig {
  rocksdb::Options options;
  // The default of every write: the WAL off when the database was opened with walEnabled=false.
  bool disable_wal = false;
};

// Reads every option (TypeError / RangeError for a wrong type or value).
OpenConfig ParseOpenOptions(const Napi::Object& options);

// A compression name ("none", "snappy", "lz4", "zstd") as RocksDB's type, or a TypeError.
rocksdb::CompressionType ParseCompression(Napi::Env env, const std::string& name);

// Table settings shared by open() and SstFileWriter: block size, bloom filter.
void ApplyBlockOptions(const Napi::Object& options, rocksdb::BlockBasedTableOptions& table);

}  // namespace nsr
