#include "sst_file_writer.h"

#include <rocksdb/env.h>
#include <rocksdb/table.h>

#include <cstdio>

#include "batch.h"
#include "common.h"
#include "options.h"

namespace nsr {

Napi::Function SstFileWriter::Define(Napi::Env env) {
  return DefineClass(env, "SstFileWriter",
                     {
                         InstanceMethod<&SstFileWriter::Put>("put"),
                         InstanceMethod<&SstFileWriter::Delete>("delete"),
                         InstanceMethod<&SstFileWriter::DeleteRange>("deleteRange"),
                         InstanceMethod<&SstFileWriter::Add>("add"),
                         InstanceMethod<&SstFileWriter::Finish>("finish"),
                         InstanceMethod<&SstFileWriter::FileSize>("fileSize"),
                         InstanceMethod<&SstFileWriter::Abandon>("abandon"),
                     });
}

SstFileWriter::SstFileWriter(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<SstFileWriter>(info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "path must be a string");
  path_ = info[0].As<Napi::String>().Utf8Value();
  Napi::Object options = OptionsArgument(info, 1);
  rocksdb::BlockBasedTableOptions table;
  ApplyBlockOptions(options, table);
  options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options_.compression = ParseCompression(env, OptionalString(options, "compression", "none"));
  writer_ = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), options_);
  Check(env, writer_->Open(path_), ("open " + path_).c_str());
}

rocksdb::SstFileWriter& SstFileWriter::Require(Napi::Env env) {
  if (!writer_) throw ClosedError(env, "the SST file writer is finished");
  return *writer_;
}

// put(key, value): keys in strictly ascending order.
void SstFileWriter::Put(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::SstFileWriter& writer = Require(env);
  Check(env, writer.Put(BufferSlice(info[0], "key"), BufferSlice(info[1], "value")),
        "add to an SST file");
}

// delete(key): a tombstone, in key order with the puts.
void SstFileWriter::Delete(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, Require(env).Delete(BufferSlice(info[0], "key")), "add to an SST file");
}

// deleteRange(from, to): a range tombstone for [from, to).
void SstFileWriter::DeleteRange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, Require(env).DeleteRange(BufferSlice(info[0], "from"), BufferSlice(info[1], "to")),
        "add to an SST file");
}

// add(encodedBatch): the batch's puts, deletes and range deletes, in order (one call).
void SstFileWriter::Add(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::SstFileWriter& writer = Require(env);
  Check(env,
        ForEachBatchRecord(
            BufferSlice(info[0], "batch"),
            [&writer](BatchOp op, const rocksdb::Slice& key, const rocksdb::Slice& value) {
              switch (op) {
                case BatchOp::kPut:
                  return writer.Put(key, value);
                case BatchOp::kDelete:
                  return writer.Delete(key);
                case BatchOp::kDeleteRange:
                  return writer.DeleteRange(key, value);
              }
              return rocksdb::Status::InvalidArgument("unknown operation");
            }),
        "add to an SST file");
}

// finish(): { path, fileSize, entries, smallestKey?, largestKey? }; the writer is then done.
Napi::Value SstFileWriter::Finish(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::SstFileWriter& writer = Require(env);
  rocksdb::ExternalSstFileInfo file;
  rocksdb::Status status = writer.Finish(&file);
  writer_.reset();
  Check(env, status, ("finish " + path_).c_str());
  Napi::Object result = Napi::Object::New(env);
  result.Set("path", Napi::String::New(env, path_));
  result.Set("fileSize", Napi::Number::New(env, static_cast<double>(file.file_size)));
  result.Set("entries", Napi::Number::New(env, static_cast<double>(file.num_entries)));
  if (file.num_entries > 0) {
    result.Set("smallestKey", CopyBuffer(env, file.smallest_key));
    result.Set("largestKey", CopyBuffer(env, file.largest_key));
  }
  return result;
}

Napi::Value SstFileWriter::FileSize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Require(info.Env()).FileSize()));
}

// abandon(): stops writing and deletes the unfinished file.
void SstFileWriter::Abandon(const Napi::CallbackInfo&) {
  if (!writer_) return;
  writer_.reset();
  std::remove(path_.c_str());
}

}  // namespace nsr
