// A write-buffer manager: one memtable budget shared by several databases, optionally charged
// to a block cache (Kafka Streams' BoundedMemoryRocksDBConfig). It never stalls writes.
#pragma once

#include <rocksdb/write_buffer_manager.h>

#include "shared_handle.h"

namespace nsr {

class WriteBufferManager : public SharedHandle<WriteBufferManager, rocksdb::WriteBufferManager> {
 public:
  static constexpr const char* kClassName = "WriteBufferManager";
  static constexpr const char* kClosedMessage = "the write buffer manager is closed";
  static constexpr Napi::FunctionReference AddonData::*kConstructor =
      &AddonData::write_buffer_manager;

  static Napi::Function Define(Napi::Env env);
  explicit WriteBufferManager(const Napi::CallbackInfo& info);
};

}  // namespace nsr
