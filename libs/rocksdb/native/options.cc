#include "options.h"

#include <rocksdb/filter_policy.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>

#include "cache.h"
#include "common.h"
#include "write_buffer_manager.h"

namespace nsr {

namespace {
constexpr int64_t kMaxBytes = 1LL << 50;
}

rocksdb::CompressionType ParseCompression(Napi::Env env, const std::string& name) {
  if (name == "none") return rocksdb::kNoCompression;
  if (name == "snappy") return rocksdb::kSnappyCompression;
  if (name == "lz4") return rocksdb::kLZ4Compression;
  if (name == "zstd") return rocksdb::kZSTD;
  throw Napi::TypeError::New(env, "compression must be 'none', 'snappy', 'lz4' or 'zstd'");
}

void ApplyBlockOptions(const Napi::Object& options, rocksdb::BlockBasedTableOptions& table) {
  table.block_size =
      static_cast<size_t>(OptionalInteger(options, "blockSize", 4 * 1024, 256, 1LL << 30));
  double bits = OptionalNumber(options, "bloomFilterBitsPerKey", 10);
  if (!(bits >= 0 && bits <= 100)) {
    throw Napi::RangeError::New(options.Env(), "bloomFilterBitsPerKey must be in [0, 100]");
  }
  if (bits > 0) table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(bits, false));
}

OpenConfig ParseOpenOptions(const Napi::Object& js) {
  Napi::Env env = js.Env();
  OpenConfig config;
  rocksdb::Options& options = config.options;
  options.create_if_missing = OptionalBool(js, "createIfMissing", true);
  options.error_if_exists = OptionalBool(js, "errorIfExists", false);

  rocksdb::BlockBasedTableOptions table;
  ApplyBlockOptions(js, table);
  Napi::Value cache = js.Get("blockCache");
  if (!cache.IsUndefined()) {
    table.block_cache = Cache::From(cache, "blockCache");
  } else {
    auto size = OptionalInteger(js, "blockCacheSize", 50LL << 20, 0, kMaxBytes);
    if (size > 0) {
      table.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(size));
    } else {
      table.no_block_cache = true;
    }
  }
  table.cache_index_and_filter_blocks = OptionalBool(js, "cacheIndexAndFilterBlocks", false);
  table.cache_index_and_filter_blocks_with_high_priority =
      OptionalBool(js, "cacheIndexAndFilterBlocksWithHighPriority", true);
  if (OptionalBool(js, "partitionedIndexAndFilters", false)) {
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table.partition_filters = table.filter_policy != nullptr;
    table.pin_top_level_index_and_filter = true;
  }
  if (table.cache_index_and_filter_blocks && table.no_block_cache) {
    throw Napi::TypeError::New(env, "cacheIndexAndFilterBlocks needs a block cache");
  }
  // Memory RocksDB keeps outside the cache unless charged to it (7.x: cache_usage_options).
  bool charge_readers = OptionalBool(js, "chargeTableReadersToCache", false);
  bool charge_metadata = OptionalBool(js, "chargeFileMetadataToCache", false);
  if ((charge_readers || charge_metadata) && table.no_block_cache) {
    throw Napi::TypeError::New(env, "charging memory to the cache needs a block cache");
  }
  auto& overrides = table.cache_usage_options.options_overrides;
  if (charge_readers) {
    overrides[rocksdb::CacheEntryRole::kBlockBasedTableReader].charged =
        rocksdb::CacheEntryRoleOptions::Decision::kEnabled;
  }
  if (charge_metadata) {
    overrides[rocksdb::CacheEntryRole::kFileMetadata].charged =
        rocksdb::CacheEntryRoleOptions::Decision::kEnabled;
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));

  options.write_buffer_size =
      static_cast<size_t>(OptionalInteger(js, "writeBufferSize", 16LL << 20, 64 << 10, kMaxBytes));
  options.max_write_buffer_number =
      static_cast<int>(OptionalInteger(js, "maxWriteBufferNumber", 3, 2, 64));
  // 0: RocksDB's default, an eighth of the write buffer (what an active memtable allocates
  // first, so what every store costs at least once it is written to).
  options.arena_block_size =
      static_cast<size_t>(OptionalInteger(js, "arenaBlockSize", 0, 0, 1LL << 30));
  if (options.arena_block_size > 0 && options.arena_block_size < 4096) {
    throw Napi::RangeError::New(env, "arenaBlockSize must be 0 or at least 4096");
  }
  // Flushed memtables are not kept for conflict checking: memory stays bounded.
#if ROCKSDB_MAJOR < 10 || (ROCKSDB_MAJOR == 10 && ROCKSDB_MINOR < 2)
  // Removed in RocksDB 10.2 (the size below replaced it).
  options.max_write_buffer_number_to_maintain = 0;
#endif
  options.max_write_buffer_size_to_maintain = 0;
  Napi::Value manager = js.Get("writeBufferManager");
  if (!manager.IsUndefined()) {
    options.write_buffer_manager = WriteBufferManager::From(manager, "writeBufferManager");
  }

  std::string style = OptionalString(js, "compactionStyle", "universal");
  if (style == "universal") {
    options.compaction_style = rocksdb::kCompactionStyleUniversal;
  } else if (style == "level") {
    options.compaction_style = rocksdb::kCompactionStyleLevel;
  } else {
    throw Napi::TypeError::New(env, "compactionStyle must be 'universal' or 'level'");
  }
  options.compression = ParseCompression(env, OptionalString(js, "compression", "none"));

  if (!js.Get("parallelism").IsUndefined()) {
    options.IncreaseParallelism(static_cast<int>(OptionalInteger(js, "parallelism", 2, 1, 1024)));
  }
  if (!js.Get("maxBackgroundJobs").IsUndefined()) {
    options.max_background_jobs =
        static_cast<int>(OptionalInteger(js, "maxBackgroundJobs", 2, 1, 1024));
  }
  options.max_open_files = static_cast<int>(OptionalInteger(js, "maxOpenFiles", -1, -1, 1 << 30));
  if (options.max_open_files >= 0 && options.max_open_files < 10) {
    throw Napi::RangeError::New(env, "maxOpenFiles must be -1 or at least 10");
  }
  options.avoid_flush_during_shutdown = OptionalBool(js, "avoidFlushDuringShutdown", false);
  if (OptionalBool(js, "statistics", false)) {
    // Kafka Streams' level for its RocksDB metrics: every ticker, no per-operation timers.
    options.statistics = rocksdb::CreateDBStatistics();
    options.statistics->set_stats_level(rocksdb::StatsLevel::kExceptDetailedTimers);
  }
  config.disable_wal = !OptionalBool(js, "walEnabled", true);
  return config;
}

}  // namespace nsr
