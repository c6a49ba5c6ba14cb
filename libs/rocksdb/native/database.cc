#include "database.h"

#include <rocksdb/write_batch.h>

#include "batch.h"
#include "common.h"
#include "iterator.h"
#include "options.h"
#include "packed.h"

namespace nsr {

Napi::Function Database::Define(Napi::Env env) {
  return DefineClass(env, "Database",
                     {
                         InstanceMethod<&Database::Open>("open"),
                         InstanceMethod<&Database::Close>("close"),
                         InstanceMethod<&Database::IsOpen>("isOpen"),
                         InstanceMethod<&Database::Get>("get"),
                         InstanceMethod<&Database::GetMany>("getMany"),
                         InstanceMethod<&Database::GetAsync>("getAsync"),
                         InstanceMethod<&Database::GetManyAsync>("getManyAsync"),
                         InstanceMethod<&Database::Write>("write"),
                         InstanceMethod<&Database::WriteAsync>("writeAsync"),
                         InstanceMethod<&Database::NewIterator>("iterator"),
                         InstanceMethod<&Database::Flush>("flush"),
                         InstanceMethod<&Database::CompactRange>("compactRange"),
                         InstanceMethod<&Database::GetProperty>("getProperty"),
                         InstanceMethod<&Database::Statistics>("statistics"),
                         InstanceMethod<&Database::Checkpoint>("checkpoint"),
                         InstanceMethod<&Database::IngestExternalFiles>("ingestExternalFiles"),
                         StaticMethod<&Database::Destroy>("destroy"),
                     });
}

Database::Database(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Database>(info) {}

Database::~Database() {
  // Finalized without close() (garbage collected, or the environment is shutting down, when
  // finalizers run in any order): drop the RocksDB iterators, then close synchronously.
  for (Iterator* iterator : iterators_) iterator->Detach();
  iterators_.clear();
  if (db_) {
    db_->Close().PermitUncheckedError();
    db_.reset();
  }
}

rocksdb::DB* Database::Require(Napi::Env env) const {
  if (state_ != State::kOpen || close_requested_) {
    throw ClosedError(env, "the database is not open");
  }
  return db_.get();
}

void Database::BeginCall() {
  pending_++;
  Ref();
}

void Database::EndCall() {
  pending_--;
  Napi::Env env = Env();
  MaybeFinishClose(env);
  Unref();
}

// ---- open and close ------------------------------------------------------------------------

class Database::OpenWorker : public PromiseWorker {
 public:
  OpenWorker(Napi::Env env, Database* database, OpenConfig config)
      : PromiseWorker(env, "nest-streams:rocksdb:open"),
        database_(database),
        config_(std::move(config)) {}

 protected:
  rocksdb::Status Run() override {
    rocksdb::DB* db = nullptr;
    rocksdb::Status status = rocksdb::DB::Open(config_.options, database_->path_, &db);
    db_.reset(db);
    return status;
  }
  void Completed(const rocksdb::Status& status) override {
    if (status.ok()) {
      database_->db_ = std::move(db_);
      database_->disable_wal_ = config_.disable_wal;
      database_->statistics_ = config_.options.statistics;
      database_->state_ = State::kOpen;
    } else {
      database_->state_ = State::kClosed;
    }
    database_->EndCall();
  }
  std::string Operation() const override { return "open " + database_->path_; }

 private:
  Database* database_;
  OpenConfig config_;
  std::unique_ptr<rocksdb::DB> db_;
};

class Database::CloseWorker : public PromiseWorker {
 public:
  CloseWorker(Napi::Env env, Database* database, std::unique_ptr<rocksdb::DB> db)
      : PromiseWorker(env, "nest-streams:rocksdb:close"), database_(database), db_(std::move(db)) {}

 protected:
  rocksdb::Status Run() override {
    rocksdb::Status status = db_->Close();
    db_.reset();
    return status;
  }
  void Completed(const rocksdb::Status& status) override {
    database_->Closed(Env(), status);
    database_->Unref();
  }
  std::string Operation() const override { return "close " + database_->path_; }

 private:
  Database* database_;
  std::unique_ptr<rocksdb::DB> db_;
};

// open(path, options): Promise<void>
Napi::Value Database::Open(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (state_ != State::kClosed || close_requested_) {
    throw Napi::Error::New(env, "the database is already open, opening or closing");
  }
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "path must be a string");
  path_ = info[0].As<Napi::String>().Utf8Value();
  OpenConfig config = ParseOpenOptions(OptionsArgument(info, 1));
  auto* worker = new OpenWorker(env, this, std::move(config));
  state_ = State::kOpening;
  BeginCall();
  worker->Queue();
  return worker->Promise();
}

// close(): Promise<void>, idempotent; resolves once RocksDB is closed.
Napi::Value Database::Close(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto deferred = Napi::Promise::Deferred::New(env);
  if (state_ == State::kClosed && pending_ == 0 && !close_requested_) {
    deferred.Resolve(env.Undefined());
    return deferred.Promise();
  }
  closing_.push_back(deferred);
  if (!close_requested_) {
    close_requested_ = true;
    // Copy: releasing an iterator removes it from the set.
    std::set<Iterator*> iterators = iterators_;
    for (Iterator* iterator : iterators) iterator->Release();
  }
  MaybeFinishClose(env);
  return deferred.Promise();
}

void Database::MaybeFinishClose(Napi::Env env) {
  if (!close_requested_ || close_running_ || pending_ > 0) return;
  close_running_ = true;
  state_ = State::kClosing;
  if (!db_) {
    Closed(env, rocksdb::Status::OK());
    return;
  }
  Ref();
  (new CloseWorker(env, this, std::move(db_)))->Queue();
}

void Database::Closed(Napi::Env env, const rocksdb::Status& status) {
  state_ = State::kClosed;
  statistics_.reset();
  close_requested_ = false;
  close_running_ = false;
  std::vector<Napi::Promise::Deferred> closing = std::move(closing_);
  closing_.clear();
  for (auto& deferred : closing) {
    if (status.ok()) {
      deferred.Resolve(env.Undefined());
    } else {
      deferred.Reject(StatusError(env, status, "close " + path_).Value());
    }
  }
}

Napi::Value Database::IsOpen(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), state_ == State::kOpen && !close_requested_);
}

// ---- synchronous reads and writes ----------------------------------------------------------

// get(key): Buffer | undefined
Napi::Value Database::Get(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::DB* db = Require(env);
  rocksdb::Slice key = BufferSlice(info[0], "key");
  rocksdb::PinnableSlice value;
  rocksdb::Status status = db->Get(rocksdb::ReadOptions(), db->DefaultColumnFamily(), key, &value);
  if (status.IsNotFound()) return env.Undefined();
  Check(env, status, "get");
  return CopyBuffer(env, value);
}

// getMany(keys): packed values (see packed.h)
Napi::Value Database::GetMany(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::DB* db = Require(env);
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "keys must be an array of Buffers");
  Napi::Array array = info[0].As<Napi::Array>();
  size_t count = array.Length();
  std::vector<rocksdb::Slice> keys(count);
  for (size_t i = 0; i < count; i++) keys[i] = BufferSlice(array.Get(i), "key");
  std::vector<rocksdb::PinnableSlice> values(count);
  std::vector<rocksdb::Status> statuses(count);
  if (count > 0) {
    db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), count, keys.data(),
                 values.data(), statuses.data());
  }
  for (const auto& status : statuses) {
    if (!status.ok() && !status.IsNotFound()) Check(env, status, "multi-get");
  }
  return PackValues(
      env, count, [&](size_t i) { return statuses[i].ok(); },
      [&](size_t i) { return rocksdb::Slice(values[i]); });
}

rocksdb::WriteOptions Database::ParseWriteOptions(const Napi::CallbackInfo& info) const {
  Napi::Object options = OptionsArgument(info, 1);
  rocksdb::WriteOptions write_options;
  write_options.disableWAL = OptionalBool(options, "disableWAL", disable_wal_);
  write_options.sync = OptionalBool(options, "sync", false);
  if (write_options.sync && write_options.disableWAL) {
    throw Napi::TypeError::New(info.Env(), "sync needs the WAL (disableWAL must be false)");
  }
  return write_options;
}

// write(encodedBatch, { disableWAL?, sync?, orderByKey? }): applies the batch atomically.
void Database::Write(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::DB* db = Require(env);
  rocksdb::Slice encoded = BufferSlice(info[0], "batch");
  rocksdb::WriteOptions write_options = ParseWriteOptions(info);
  rocksdb::WriteBatch batch;
  bool key_order = OptionalBool(OptionsArgument(info, 1), "orderByKey", false);
  Check(env, ToWriteBatch(encoded, &batch, key_order), "decode a write batch");
  Check(env, db->Write(write_options, &batch), "write a batch");
}

// getProperty(name): string | undefined
Napi::Value Database::GetProperty(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  rocksdb::DB* db = Require(env);
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "name must be a string");
  std::string value;
  if (!db->GetProperty(info[0].As<Napi::String>().Utf8Value(), &value)) return env.Undefined();
  return Napi::String::New(env, value);
}

// statistics(): { [ticker name]: count } of every RocksDB ticker, or undefined when the
// database was opened without the `statistics` option.
Napi::Value Database::Statistics(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Require(env);
  if (!statistics_) return env.Undefined();
  Napi::Object tickers = Napi::Object::New(env);
  for (const auto& [ticker, name] : rocksdb::TickersNameMap) {
    double count = static_cast<double>(statistics_->getTickerCount(ticker));
    tickers.Set(name, Napi::Number::New(env, count));
  }
  return tickers;
}

// iterator(options): a native Iterator over a snapshot taken now.
Napi::Value Database::NewIterator(const Napi::CallbackInfo& info) {
  Require(info.Env());
  return Data(info.Env()).iterator.New({Value(), OptionsArgument(info, 0)});
}

}  // namespace nsr
