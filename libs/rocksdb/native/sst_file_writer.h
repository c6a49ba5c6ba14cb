// Writes a sorted SST file outside any database, to be ingested with ingestExternalFiles():
// the fastest way to bulk-load a store (no memtable, no WAL, no compaction of the load).
#pragma once

#include <napi.h>
#include <rocksdb/sst_file_writer.h>

#include <memory>

namespace nsr {

class SstFileWriter : public Napi::ObjectWrap<SstFileWriter> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new SstFileWriter(path, { blockSize?, bloomFilterBitsPerKey?, compression? })
  explicit SstFileWriter(const Napi::CallbackInfo& info);

 private:
  void Put(const Napi::CallbackInfo& info);
  void Delete(const Napi::CallbackInfo& info);
  void DeleteRange(const Napi::CallbackInfo& info);
  void Add(const Napi::CallbackInfo& info);
  Napi::Value Finish(const Napi::CallbackInfo& info);
  Napi::Value FileSize(const Napi::CallbackInfo& info);
  void Abandon(const Napi::CallbackInfo& info);
  rocksdb::SstFileWriter& Require(Napi::Env env);

  rocksdb::Options options_;
  std::unique_ptr<rocksdb::SstFileWriter> writer_;
  std::string path_;
};

}  // namespace nsr
