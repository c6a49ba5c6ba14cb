// A block cache (LRU or HyperClock) that several databases can share.
#pragma once

#include <napi.h>
#include <rocksdb/cache.h>

#include <memory>

namespace nsr {

class Cache : public Napi::ObjectWrap<Cache> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit Cache(const Napi::CallbackInfo& info);

  // The cache behind a JS Cache object, or a TypeError / closed error.
  static std::shared_ptr<rocksdb::Cache> From(const Napi::Value& value, const char* name);

 private:
  Napi::Value Usage(const Napi::CallbackInfo& info);
  Napi::Value PinnedUsage(const Napi::CallbackInfo& info);
  Napi::Value Capacity(const Napi::CallbackInfo& info);
  void SetCapacity(const Napi::CallbackInfo& info);
  void Close(const Napi::CallbackInfo& info);
  rocksdb::Cache& Require(Napi::Env env) const;

  // Released by close(); databases opened with the cache keep their own reference.
  std::shared_ptr<rocksdb::Cache> cache_;
};

}  // namespace nsr
