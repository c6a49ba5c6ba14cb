// An ordered iterator over a database, forward or reverse, with inclusive or exclusive bounds.
// A RocksDB iterator reads the implicit snapshot taken when it is created. Entries cross into
// JS in chunks (see ReadChunk) to amortize the cost of each call.
#pragma once

#include <napi.h>
#include <rocksdb/db.h>

#include <memory>
#include <string>

namespace nsr {

class Database;

// Entries read by one chunk: keys and values back to back in `data`, lengths in `lengths`.
struct Chunk {
  std::string data;
  std::vector<uint32_t> lengths;  // key length, value length, key length, ...
  bool done = false;
  Napi::Buffer<char> Pack(Napi::Env env) const;
};

class Iterator : public Napi::ObjectWrap<Iterator> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new Iterator(database, { gte?, gt?, lte?, lt?, reverse? })
  explicit Iterator(const Napi::CallbackInfo& info);
  ~Iterator() override;

  // Closes the RocksDB iterator now, or when its running asynchronous read completes.
  void Release();
  // The database is being finalized without close(): drop the RocksDB iterator first.
  void Detach();

 private:
  class ChunkWorker;

  Napi::Value NextChunk(const Napi::CallbackInfo& info);
  Napi::Value NextChunkAsync(const Napi::CallbackInfo& info);
  void Close(const Napi::CallbackInfo& info);
  rocksdb::Iterator& RequireIdle(Napi::Env env);
  // Reads up to `limit` entries or about `max_bytes` bytes (at least one entry).
  rocksdb::Status ReadChunk(size_t limit, size_t max_bytes, Chunk* chunk);

  Database* database_ = nullptr;
  Napi::ObjectReference database_ref_;
  std::unique_ptr<rocksdb::Iterator> iterator_;
  std::string lower_, upper_;
  rocksdb::Slice lower_slice_, upper_slice_;
  bool reverse_ = false;
  bool started_ = false;
  bool busy_ = false;
  bool release_requested_ = false;
};

}  // namespace nsr
