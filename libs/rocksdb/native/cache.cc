#include "cache.h"

#include "common.h"

namespace nsr {

Napi::Function Cache::Define(Napi::Env env) {
  return DefineClass(env, "Cache",
                     {
                         InstanceMethod<&Cache::Usage>("usage"),
                         InstanceMethod<&Cache::PinnedUsage>("pinnedUsage"),
                         InstanceMethod<&Cache::Capacity>("capacity"),
                         InstanceMethod<&Cache::SetCapacity>("setCapacity"),
                         InstanceMethod<&Cache::Close>("close"),
                     });
}

// new Cache({ type: 'lru' | 'hyperClock', capacity, highPriPoolRatio, strictCapacityLimit,
//             estimatedEntryCharge, numShardBits })
Cache::Cache(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Cache>(info) {
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
    cache_ = rocksdb::NewLRUCache(lru);
  } else if (type == "hyperClock") {
    auto charge =
        static_cast<size_t>(OptionalInteger(options, "estimatedEntryCharge", 4096, 1, 1LL << 40));
    rocksdb::HyperClockCacheOptions clock(capacity, charge, shard_bits, strict);
    cache_ = clock.MakeSharedCache();
  } else {
    throw Napi::TypeError::New(info.Env(), "type must be 'lru' or 'hyperClock'");
  }
  if (!cache_) throw Napi::Error::New(info.Env(), "RocksDB could not create the cache");
}

std::shared_ptr<rocksdb::Cache> Cache::From(const Napi::Value& value, const char* name) {
  Napi::Env env = value.Env();
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(Data(env).cache.Value())) {
    throw Napi::TypeError::New(env, std::string(name) + " must be a Cache");
  }
  Cache* cache = Unwrap(value.As<Napi::Object>());
  if (!cache->cache_) throw ClosedError(env, std::string(name) + " is closed");
  return cache->cache_;
}

rocksdb::Cache& Cache::Require(Napi::Env env) const {
  if (!cache_) throw ClosedError(env, "the cache is closed");
  return *cache_;
}

Napi::Value Cache::Usage(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Require(info.Env()).GetUsage()));
}

Napi::Value Cache::PinnedUsage(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Require(info.Env()).GetPinnedUsage()));
}

Napi::Value Cache::Capacity(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Require(info.Env()).GetCapacity()));
}

void Cache::SetCapacity(const Napi::CallbackInfo& info) {
  rocksdb::Cache& cache = Require(info.Env());
  cache.SetCapacity(static_cast<size_t>(IntegerArgument(info, 0, "capacity", 0, 0, 1LL << 50)));
}

void Cache::Close(const Napi::CallbackInfo&) { cache_.reset(); }

}  // namespace nsr
