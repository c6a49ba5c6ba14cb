// A block cache (LRU or HyperClock) that several databases can share.
#pragma once

#include <rocksdb/cache.h>

#include "shared_handle.h"

namespace nsr {

class Cache : public SharedHandle<Cache, rocksdb::Cache> {
 public:
  static constexpr const char* kClassName = "Cache";
  static constexpr const char* kClosedMessage = "the cache is closed";
  static constexpr Napi::FunctionReference AddonData::*kConstructor = &AddonData::cache;

  static Napi::Function Define(Napi::Env env);
  explicit Cache(const Napi::CallbackInfo& info);

 private:
  void SetCapacity(const Napi::CallbackInfo& info);
};

}  // namespace nsr
