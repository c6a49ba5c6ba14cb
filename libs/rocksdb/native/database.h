// One RocksDB database: synchronous reads and writes on the main thread, asynchronous ones on
// the libuv pool, iterators, flush, compaction, checkpoints and SST ingestion.
//
// Lifetime: every asynchronous call counts as pending and holds a reference to the JS object;
// close() refuses new calls at once, releases idle iterators, waits for the pending calls, then
// closes RocksDB on the pool. Calls on a closed database throw the closed error.
#pragma once

#include <napi.h>
#include <rocksdb/db.h>
#include <rocksdb/statistics.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace nsr {

class Iterator;

class Database : public Napi::ObjectWrap<Database> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit Database(const Napi::CallbackInfo& info);
  ~Database() override;

  // The open database, or the closed error.
  rocksdb::DB* Require(Napi::Env env) const;
  // An asynchronous call starts / ends (keeps the database open and the JS object alive).
  void BeginCall();
  void EndCall();
  void AddIterator(Iterator* iterator) { iterators_.insert(iterator); }
  void RemoveIterator(Iterator* iterator) { iterators_.erase(iterator); }

 private:
  enum class State { kClosed, kOpening, kOpen, kClosing };
  class OpenWorker;
  class CloseWorker;

  Napi::Value Open(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  Napi::Value IsOpen(const Napi::CallbackInfo& info);
  Napi::Value Get(const Napi::CallbackInfo& info);
  Napi::Value GetMany(const Napi::CallbackInfo& info);
  Napi::Value GetAsync(const Napi::CallbackInfo& info);
  Napi::Value GetManyAsync(const Napi::CallbackInfo& info);
  void Write(const Napi::CallbackInfo& info);
  Napi::Value WriteAsync(const Napi::CallbackInfo& info);
  Napi::Value NewIterator(const Napi::CallbackInfo& info);
  Napi::Value Flush(const Napi::CallbackInfo& info);
  Napi::Value CompactRange(const Napi::CallbackInfo& info);
  Napi::Value GetProperty(const Napi::CallbackInfo& info);
  Napi::Value Statistics(const Napi::CallbackInfo& info);
  Napi::Value Checkpoint(const Napi::CallbackInfo& info);
  Napi::Value IngestExternalFiles(const Napi::CallbackInfo& info);
  static Napi::Value Destroy(const Napi::CallbackInfo& info);

  // The options of write()/writeAsync() (argument 1), the WAL default being the database's.
  rocksdb::WriteOptions ParseWriteOptions(const Napi::CallbackInfo& info) const;
  void MaybeFinishClose(Napi::Env env);
  void Closed(Napi::Env env, const rocksdb::Status& status);

  State state_ = State::kClosed;
  std::unique_ptr<rocksdb::DB> db_;
  // The statistics the database was opened with (the `statistics` option), else null.
  std::shared_ptr<rocksdb::Statistics> statistics_;
  bool disable_wal_ = false;
  bool close_requested_ = false;
  bool close_running_ = false;
  int pending_ = 0;
  std::set<Iterator*> iterators_;
  std::vector<Napi::Promise::Deferred> closing_;
  std::string path_;
};

}  // namespace nsr
