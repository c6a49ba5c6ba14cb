// The database's asynchronous calls: each runs on the libuv pool and settles a promise.
#include <rocksdb/utilities/checkpoint.h>
#include <rocksdb/write_batch.h>

#include "batch.h"
#include "common.h"
#include "database.h"
#include "packed.h"

namespace nsr {

namespace {

// A call on an open database: counted as pending until it completes, so that close() waits.
class DatabaseWorker : public PromiseWorker {
 public:
  DatabaseWorker(Napi::Env env, const char* name, Database* database)
      : PromiseWorker(env, name), database_(database), db_(database->Require(env)) {
    database_->BeginCall();
  }

 protected:
  void Completed(const rocksdb::Status&) override { database_->EndCall(); }

  Database* database_;
  rocksdb::DB* db_;
};

class GetWorker : public DatabaseWorker {
 public:
  GetWorker(Napi::Env env, Database* database, std::vector<std::string> keys, bool single)
      : DatabaseWorker(env, "nest-streams:rocksdb:get", database),
        keys_(std::move(keys)),
        single_(single) {}

 protected:
  rocksdb::Status Run() override {
    size_t count = keys_.size();
    std::vector<rocksdb::Slice> slices(keys_.begin(), keys_.end());
    values_.resize(count);
    statuses_.resize(count);
    if (count > 0) {
      db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), count, slices.data(),
                    values_.data(), statuses_.data());
    }
    for (const auto& status : statuses_) {
      if (!status.ok() && !status.IsNotFound()) return status;
    }
    return rocksdb::Status::OK();
  }
  Napi::Value Result(Napi::Env env) override {
    if (single_) {
      return statuses_[0].ok() ? CopyBuffer(env, values_[0]) : env.Undefined();
    }
    return PackValues(
        env, keys_.size(), [&](size_t i) { return statuses_[i].ok(); },
        [&](size_t i) { return rocksdb::Slice(values_[i]); });
  }
  std::string Operation() const override { return "get"; }

 private:
  std::vector<std::string> keys_;
  bool single_;
  std::vector<rocksdb::PinnableSlice> values_;
  std::vector<rocksdb::Status> statuses_;
};

// A write whose batch is decoded (in key order when asked) on the pool, from a copy of the
// encoded bytes: the caller may reuse its batch as soon as the call returns.
class WriteWorker : public DatabaseWorker {
 public:
  WriteWorker(Napi::Env env, Database* database, rocksdb::WriteOptions options,
              std::string encoded, bool key_order)
      : DatabaseWorker(env, "nest-streams:rocksdb:write", database),
        options_(options),
        encoded_(std::move(encoded)),
        key_order_(key_order) {}

 protected:
  rocksdb::Status Run() override {
    rocksdb::WriteBatch batch;
    rocksdb::Status status = ToWriteBatch(encoded_, &batch, key_order_);
    if (!status.ok()) return status;
    encoded_.clear();
    encoded_.shrink_to_fit();
    return db_->Write(options_, &batch);
  }
  std::string Operation() const override { return "write a batch"; }

 private:
  rocksdb::WriteOptions options_;
  std::string encoded_;
  bool key_order_;
};

class FlushWorker : public DatabaseWorker {
 public:
  FlushWorker(Napi::Env env, Database* database, bool wait)
      : DatabaseWorker(env, "nest-streams:rocksdb:flush", database) {
    options_.wait = wait;
  }

 protected:
  rocksdb::Status Run() override { return db_->Flush(options_); }
  std::string Operation() const override { return "flush"; }

 private:
  rocksdb::FlushOptions options_;
};

class CompactWorker : public DatabaseWorker {
 public:
  CompactWorker(Napi::Env env, Database* database, std::unique_ptr<std::string> from,
                std::unique_ptr<std::string> to)
      : DatabaseWorker(env, "nest-streams:rocksdb:compact", database),
        from_(std::move(from)),
        to_(std::move(to)) {}

 protected:
  rocksdb::Status Run() override {
    rocksdb::Slice from = from_ ? rocksdb::Slice(*from_) : rocksdb::Slice();
    rocksdb::Slice to = to_ ? rocksdb::Slice(*to_) : rocksdb::Slice();
    return db_->CompactRange(rocksdb::CompactRangeOptions(), from_ ? &from : nullptr,
                             to_ ? &to : nullptr);
  }
  std::string Operation() const override { return "compact"; }

 private:
  std::unique_ptr<std::string> from_, to_;
};

class CheckpointWorker : public DatabaseWorker {
 public:
  CheckpointWorker(Napi::Env env, Database* database, std::string directory)
      : DatabaseWorker(env, "nest-streams:rocksdb:checkpoint", database),
        directory_(std::move(directory)) {}

 protected:
  rocksdb::Status Run() override {
    rocksdb::Checkpoint* raw = nullptr;
    rocksdb::Status status = rocksdb::Checkpoint::Create(db_, &raw);
    std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
    // log_size_for_flush = 0: always flush the memtables first, so that the checkpoint holds
    // writes made with the WAL off too.
    if (status.ok()) status = checkpoint->CreateCheckpoint(directory_, 0);
    return status;
  }
  std::string Operation() const override { return "create checkpoint " + directory_; }

 private:
  std::string directory_;
};

class IngestWorker : public DatabaseWorker {
 public:
  IngestWorker(Napi::Env env, Database* database, std::vector<std::string> files,
               rocksdb::IngestExternalFileOptions options)
      : DatabaseWorker(env, "nest-streams:rocksdb:ingest", database),
        files_(std::move(files)),
        options_(options) {}

 protected:
  rocksdb::Status Run() override { return db_->IngestExternalFile(files_, options_); }
  std::string Operation() const override { return "ingest external files"; }

 private:
  std::vector<std::string> files_;
  rocksdb::IngestExternalFileOptions options_;
};

class DestroyWorker : public PromiseWorker {
 public:
  DestroyWorker(Napi::Env env, std::string path)
      : PromiseWorker(env, "nest-streams:rocksdb:destroy"), path_(std::move(path)) {}

 protected:
  rocksdb::Status Run() override { return rocksdb::DestroyDB(path_, rocksdb::Options()); }
  std::string Operation() const override { return "destroy " + path_; }

 private:
  std::string path_;
};

std::string CopyKey(const Napi::Value& value, const char* name) {
  rocksdb::Slice slice = BufferSlice(value, name);
  return std::string(slice.data(), slice.size());
}

std::unique_ptr<std::string> OptionalKey(const Napi::Value& value, const char* name) {
  if (value.IsUndefined() || value.IsNull()) return nullptr;
  return std::make_unique<std::string>(CopyKey(value, name));
}

}  // namespace

// getAsync(key): Promise<Buffer | undefined>
Napi::Value Database::GetAsync(const Napi::CallbackInfo& info) {
  Require(info.Env());
  std::vector<std::string> keys{CopyKey(info[0], "key")};
  auto* worker = new GetWorker(info.Env(), this, std::move(keys), true);
  worker->Queue();
  return worker->Promise();
}

// getManyAsync(keys): Promise<packed values>
Napi::Value Database::GetManyAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Require(env);
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "keys must be an array of Buffers");
  Napi::Array array = info[0].As<Napi::Array>();
  std::vector<std::string> keys;
  keys.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); i++) keys.push_back(CopyKey(array.Get(i), "key"));
  auto* worker = new GetWorker(env, this, std::move(keys), false);
  worker->Queue();
  return worker->Promise();
}

// writeAsync(encodedBatch, { disableWAL?, sync?, orderByKey? }): Promise<void>
Napi::Value Database::WriteAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Require(env);
  rocksdb::Slice encoded = BufferSlice(info[0], "batch");
  rocksdb::WriteOptions write_options = ParseWriteOptions(info);
  bool key_order = OptionalBool(OptionsArgument(info, 1), "orderByKey", false);
  auto* worker = new WriteWorker(env, this, write_options, encoded.ToString(), key_order);
  worker->Queue();
  return worker->Promise();
}

// flush({ wait = true }): Promise<void>: writes the memtables to SST files.
Napi::Value Database::Flush(const Napi::CallbackInfo& info) {
  bool wait = OptionalBool(OptionsArgument(info, 0), "wait", true);
  auto* worker = new FlushWorker(info.Env(), this, wait);
  worker->Queue();
  return worker->Promise();
}

// compactRange(from?, to?): Promise<void>, bounds inclusive, undefined = open.
Napi::Value Database::CompactRange(const Napi::CallbackInfo& info) {
  auto from = OptionalKey(info[0], "from");
  auto to = OptionalKey(info[1], "to");
  auto* worker = new CompactWorker(info.Env(), this, std::move(from), std::move(to));
  worker->Queue();
  return worker->Promise();
}

// checkpoint(directory): Promise<void>: a consistent copy (hard links) in a new directory.
Napi::Value Database::Checkpoint(const Napi::CallbackInfo& info) {
  if (!info[0].IsString()) throw Napi::TypeError::New(info.Env(), "directory must be a string");
  auto* worker = new CheckpointWorker(info.Env(), this, info[0].As<Napi::String>().Utf8Value());
  worker->Queue();
  return worker->Promise();
}

// ingestExternalFiles(files, { moveFiles? }): Promise<void>
Napi::Value Database::IngestExternalFiles(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "files must be an array of paths");
  Napi::Array array = info[0].As<Napi::Array>();
  std::vector<std::string> files;
  for (uint32_t i = 0; i < array.Length(); i++) {
    Napi::Value file = array.Get(i);
    if (!file.IsString()) throw Napi::TypeError::New(env, "files must be an array of paths");
    files.push_back(file.As<Napi::String>().Utf8Value());
  }
  Napi::Object options = OptionsArgument(info, 1);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = OptionalBool(options, "moveFiles", false);
  auto* worker = new IngestWorker(env, this, std::move(files), ingest);
  worker->Queue();
  return worker->Promise();
}

// Database.destroy(path): Promise<void>: deletes a closed database's files.
Napi::Value Database::Destroy(const Napi::CallbackInfo& info) {
  if (!info[0].IsString()) throw Napi::TypeError::New(info.Env(), "path must be a string");
  auto* worker = new DestroyWorker(info.Env(), info[0].As<Napi::String>().Utf8Value());
  worker->Queue();
  return worker->Promise();
}

}  // namespace nsr
