#include "cache.h"

#include "common.h"

namespace nsr {

Napi::Function Cache::Define(Napi::Env env) {
  return DefineHandle(env, {
                               Getter<size_t, &rocksdb::Cache::GetUsage>("usage"),
                               Getter<size_t, &rocksdb::Cache::GetPinnedUsage>("pinnedUsage"),
                               Getter<size_t, &rocksdb::Cache::GetCapacity>("capacity"),
                               InstanceMethod("setCapacity", &Cache::SetCapacity),
                           });
}

// new Cache({ type: 'lru' | 'hyperClock', capacity, highPriPoolRatio, strictCapacityLimit,
//             estimatedEntryCharge, numShardBits })
Cache::Cache(const Napi::CallbackInfo& info) : SharedHandle(info) {
  Napi::Object options = OptionsArgument(info, 0);
  std::string type = OptionalString(options, "type", "lru");
  auto capacity = static_cast<size_t>(OptionalInteger(options, "capacity", 0, 0, 1LL << 50));
  int shard_bits = static_cast<int>(OptionalInteger(options, "numShardBits", -1, -1, 20));
  bool strict = OptionalBool(options, "strictCapacityLimit", false);
  if (type == "lru") {
    rocksdb::LRUCacheOptions lru;
    lru.capacity = capacity;
    lru.num_shard_bits = shard_bits;
    lru.strict_capacity_limit = strict;
    lru.high_pri_pool_ratio = OptionalNumber(options, "highPriPoolRatio", 0.5);
    if (!(lru.high_pri_pool_ratio >= 0 && lru.high_pri_pool_ratio <= 1)) {
      throw Napi::RangeError::New(info.Env(), "highPriPoolRatio must be in [0, 1]");
    }
    shared_ = rocksdb::NewLRUCache(lru);
  } else if (type == "hyperClock") {
    auto charge =
        static_cast<size_t>(OptionalInteger(options, "estimatedEntryCharge", 4096, 1, 1LL << 40));
    rocksdb::HyperClockCacheOptions clock(capacity, charge, shard_bits, strict);
    shared_ = clock.MakeSharedCache();
  } else {
    throw Napi::TypeError::New(info.Env(), "type must be 'lru' or 'hyperClock'");
  }
  if (!shared_) throw Napi::Error::New(info.Env(), "RocksDB could not create the cache");
}

void Cache::SetCapacity(const Napi::CallbackInfo& info) {
  rocksdb::Cache& cache = Require(info.Env());
  cache.SetCapacity(static_cast<size_t>(IntegerArgument(info, 0, "capacity", 0, 0, 1LL << 50)));
}

}  // namespace nsr
