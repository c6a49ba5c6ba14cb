#include "write_buffer_manager.h"

#include "cache.h"
#include "common.h"

namespace nsr {

Napi::Function WriteBufferManager::Define(Napi::Env env) {
  return DefineClass(
      env, "WriteBufferManager",
      {
          InstanceMethod<&WriteBufferManager::MemoryUsage>("memoryUsage"),
          InstanceMethod<&WriteBufferManager::MutableMemoryUsage>("mutableMemoryUsage"),
          InstanceMethod<&WriteBufferManager::BufferSize>("bufferSize"),
          InstanceMethod<&WriteBufferManager::CostToCache>("costToCache"),
          InstanceMethod<&WriteBufferManager::Close>("close"),
      });
}

// new WriteBufferManager({ bufferSize, cache? })
WriteBufferManager::WriteBufferManager(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<WriteBufferManager>(info) {
  Napi::Object options = OptionsArgument(info, 0);
  auto size = static_cast<size_t>(OptionalInteger(options, "bufferSize", 0, 0, 1LL << 50));
  Napi::Value cache_value = options.Get("cache");
  std::shared_ptr<rocksdb::Cache> cache;
  if (!cache_value.IsUndefined()) cache = Cache::From(cache_value, "cache");
  // allow_stall=false: a soft limit that flushes early instead of blocking every writer
  // (an allow_stall manager can wedge all writes: facebook/rocksdb#11780).
  manager_ = std::make_shared<rocksdb::WriteBufferManager>(size, cache, false);
}

std::shared_ptr<rocksdb::WriteBufferManager> WriteBufferManager::From(const Napi::Value& value) {
  Napi::Env env = value.Env();
  if (!value.IsObject() ||
      !value.As<Napi::Object>().InstanceOf(Data(env).write_buffer_manager.Value())) {
    throw Napi::TypeError::New(env, "writeBufferManager must be a WriteBufferManager");
  }
  WriteBufferManager* wrapper = Unwrap(value.As<Napi::Object>());
  if (!wrapper->manager_) throw ClosedError(env, "the write buffer manager is closed");
  return wrapper->manager_;
}

rocksdb::WriteBufferManager& WriteBufferManager::Require(Napi::Env env) const {
  if (!manager_) throw ClosedError(env, "the write buffer manager is closed");
  return *manager_;
}

Napi::Value WriteBufferManager::MemoryUsage(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Require(info.Env()).memory_usage()));
}

Napi::Value WriteBufferManager::MutableMemoryUsage(const Napi::CallbackInfo& info) {
  return Napi::Number::New(
      info.Env(), static_cast<double>(Require(info.Env()).mutable_memtable_memory_usage()));
}

Napi::Value WriteBufferManager::BufferSize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Require(info.Env()).buffer_size()));
}

Napi::Value WriteBufferManager::CostToCache(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), Require(info.Env()).cost_to_cache());
}

void WriteBufferManager::Close(const Napi::CallbackInfo&) { manager_.reset(); }

}  // namespace nsr
