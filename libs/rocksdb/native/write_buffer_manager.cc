#include "write_buffer_manager.h"

#include "cache.h"
#include "common.h"

namespace nsr {

Napi::Function WriteBufferManager::Define(Napi::Env env) {
  using Manager = rocksdb::WriteBufferManager;
  return DefineHandle(
      env, {
               Getter<size_t, &Manager::memory_usage>("memoryUsage"),
               Getter<size_t, &Manager::mutable_memtable_memory_usage>("mutableMemoryUsage"),
               Getter<size_t, &Manager::buffer_size>("bufferSize"),
               Getter<bool, &Manager::cost_to_cache>("costToCache"),
           });
}

// new WriteBufferManager({ bufferSize, cache? })
WriteBufferManager::WriteBufferManager(const Napi::CallbackInfo& info) : SharedHandle(info) {
  Napi::Object options = OptionsArgument(info, 0);
  auto size = static_cast<size_t>(OptionalInteger(options, "bufferSize", 0, 0, 1LL << 50));
  Napi::Value cache_value = options.Get("cache");
  std::shared_ptr<rocksdb::Cache> cache;
  if (!cache_value.IsUndefined()) cache = Cache::From(cache_value, "cache");
  // allow_stall=false: a soft limit that flushes early instead of blocking every writer
  // (an allow_stall manager can wedge all writes: facebook/rocksdb#11780).
  shared_ = std::make_shared<rocksdb::WriteBufferManager>(size, cache, false);
}

}  // namespace nsr
