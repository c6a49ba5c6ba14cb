// A write-buffer manager: one memtable budget shared by several databases, optionally charged
// to a block cache (Kafka Streams' BoundedMemoryRocksDBConfig). It never stalls writes.
#pragma once

#include <napi.h>
#include <rocksdb/write_buffer_manager.h>

#include <memory>

namespace nsr {

class WriteBufferManager : public Napi::ObjectWrap<WriteBufferManager> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit WriteBufferManager(const Napi::CallbackInfo& info);

  // The manager behind a JS WriteBufferManager object, or a TypeError / closed error.
  static std::shared_ptr<rocksdb::WriteBufferManager> From(const Napi::Value& value);

 private:
  Napi::Value MemoryUsage(const Napi::CallbackInfo& info);
  Napi::Value MutableMemoryUsage(const Napi::CallbackInfo& info);
  Napi::Value BufferSize(const Napi::CallbackInfo& info);
  Napi::Value CostToCache(const Napi::CallbackInfo& info);
  void Close(const Napi::CallbackInfo& info);
  rocksdb::WriteBufferManager& Require(Napi::Env env) const;

  std::shared_ptr<rocksdb::WriteBufferManager> manager_;
};

}  // namespace nsr
