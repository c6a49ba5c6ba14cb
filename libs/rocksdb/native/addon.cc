// The addon's entry point: the classes, the RocksDB version and build facts, and the hook that
// lets the TypeScript wrapper choose the classes of the errors thrown here.
#include <napi.h>
#include <rocksdb/convenience.h>
#include <rocksdb/version.h>

#include "cache.h"
#include "common.h"
#include "database.h"
#include "iterator.h"
#include "sst_file_writer.h"
#include "write_buffer_manager.h"

namespace nsr {
namespace {

// setErrorClasses(StatusError, ClosedError)
void SetErrorClasses(const Napi::CallbackInfo& info) {
  if (!info[0].IsFunction() || !info[1].IsFunction()) {
    throw Napi::TypeError::New(info.Env(), "setErrorClasses needs two constructors");
  }
  AddonData& data = Data(info.Env());
  data.status_error = Napi::Persistent(info[0].As<Napi::Function>());
  data.closed_error = Napi::Persistent(info[1].As<Napi::Function>());
}

// The compressions this RocksDB was built with.
Napi::Value SupportedCompressions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array names = Napi::Array::New(env);
  uint32_t index = 0;
  names.Set(index++, "none");
  for (rocksdb::CompressionType type : rocksdb::GetSupportedCompressions()) {
    const char* name = type == rocksdb::kSnappyCompression ? "snappy"
                       : type == rocksdb::kLZ4Compression  ? "lz4"
                       : type == rocksdb::kZSTD            ? "zstd"
                                                           : nullptr;
    if (name != nullptr) names.Set(index++, name);
  }
  return names;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  env.SetInstanceData(data);
  Napi::Function cache = Cache::Define(env);
  Napi::Function manager = WriteBufferManager::Define(env);
  Napi::Function database = Database::Define(env);
  Napi::Function iterator = Iterator::Define(env);
  Napi::Function writer = SstFileWriter::Define(env);
  data->cache = Napi::Persistent(cache);
  data->write_buffer_manager = Napi::Persistent(manager);
  data->database = Napi::Persistent(database);
  data->iterator = Napi::Persistent(iterator);
  data->sst_file_writer = Napi::Persistent(writer);
  exports.Set("Cache", cache);
  exports.Set("WriteBufferManager", manager);
  exports.Set("Database", database);
  exports.Set("Iterator", iterator);
  exports.Set("SstFileWriter", writer);
  exports.Set("setErrorClasses", Napi::Function::New<SetErrorClasses>(env, "setErrorClasses"));
  exports.Set("supportedCompressions",
              Napi::Function::New<SupportedCompressions>(env, "supportedCompressions"));
  exports.Set("rocksdbVersion", Napi::String::New(env, rocksdb::GetRocksVersionAsString()));
  return exports;
}

}  // namespace
}  // namespace nsr

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) {
  return nsr::Init(env, exports);
}

NODE_API_MODULE(nest_streams_rocksdb, InitAddon)
