#include "iterator.h"

#include <cstring>
#include <utility>

#include "common.h"
#include "database.h"

namespace nsr {

namespace {

constexpr size_t kDefaultChunkBytes = 1 << 20;

// (limit, maxBytes?) of nextChunk / nextChunkAsync.
std::pair<size_t, size_t> ChunkArguments(const Napi::CallbackInfo& info) {
  auto limit = static_cast<size_t>(IntegerArgument(info, 0, "limit", 1000, 1, 1 << 24));
  auto max_bytes =
      static_cast<size_t>(IntegerArgument(info, 1, "maxBytes", kDefaultChunkBytes, 1, 1LL << 31));
  return {limit, max_bytes};
}

}  // namespace

Napi::Buffer<char> Chunk::Pack(Napi::Env env) const {
  // u32 count, u32 done, then count pairs of u32 (key length, value length), then the bytes.
  size_t count = lengths.size() / 2;
  size_t header = 8 + 4 * lengths.size();
  Napi::Buffer<char> out = Napi::Buffer<char>::New(env, header + data.size());
  auto n = static_cast<uint32_t>(count);
  uint32_t finished = done ? 1 : 0;
  std::memcpy(out.Data(), &n, 4);
  std::memcpy(out.Data() + 4, &finished, 4);
  if (!lengths.empty()) std::memcpy(out.Data() + 8, lengths.data(), 4 * lengths.size());
  if (!data.empty()) std::memcpy(out.Data() + header, data.data(), data.size());
  return out;
}

Napi::Function Iterator::Define(Napi::Env env) {
  return DefineClass(env, "Iterator",
                     {
                         InstanceMethod<&Iterator::NextChunk>("nextChunk"),
                         InstanceMethod<&Iterator::NextChunkAsync>("nextChunkAsync"),
                         InstanceMethod<&Iterator::Close>("close"),
                     });
}

Iterator::Iterator(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Iterator>(info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject() || !info[0].As<Napi::Object>().InstanceOf(Data(env).database.Value())) {
    throw Napi::TypeError::New(env, "an iterator needs a Database");
  }
  Database* database = Database::Unwrap(info[0].As<Napi::Object>());
  rocksdb::DB* db = database->Require(env);
  Napi::Object options = OptionsArgument(info, 1);
  auto bound = [&](const char* name, std::string* out) {
    Napi::Value value = options.Get(name);
    if (value.IsUndefined()) return false;
    rocksdb::Slice slice = BufferSlice(value, name);
    out->assign(slice.data(), slice.size());
    return true;
  };
  // RocksDB's lower bound is inclusive and its upper bound exclusive; in bytewise order the
  // next key after k is k + 0x00, which turns gt and lte into those.
  bool has_gte = bound("gte", &lower_);
  if (bound("gt", &lower_)) {
    if (has_gte) throw Napi::TypeError::New(env, "give gte or gt, not both");
    lower_.push_back('\0');
    has_gte = true;
  }
  bool has_lt = bound("lt", &upper_);
  if (bound("lte", &upper_)) {
    if (has_lt) throw Napi::TypeError::New(env, "give lt or lte, not both");
    upper_.push_back('\0');
    has_lt = true;
  }
  reverse_ = OptionalBool(options, "reverse", false);
  rocksdb::ReadOptions read_options;
  read_options.fill_cache = OptionalBool(options, "fillCache", true);
  if (has_gte) {
    lower_slice_ = rocksdb::Slice(lower_);
    read_options.iterate_lower_bound = &lower_slice_;
  }
  if (has_lt) {
    upper_slice_ = rocksdb::Slice(upper_);
    read_options.iterate_upper_bound = &upper_slice_;
  }
  iterator_.reset(db->NewIterator(read_options));
  database_ = database;
  database_ref_ = Napi::Persistent(info[0].As<Napi::Object>());
  database_->AddIterator(this);
}

Iterator::~Iterator() { iterator_.reset(); }

void Iterator::Release() {
  if (busy_) {
    release_requested_ = true;
    return;
  }
  iterator_.reset();
  if (database_ != nullptr) {
    database_->RemoveIterator(this);
    database_ = nullptr;
    database_ref_.Reset();
  }
}

void Iterator::Detach() {
  iterator_.reset();
  database_ = nullptr;
}

rocksdb::Iterator& Iterator::RequireIdle(Napi::Env env) {
  if (!iterator_ || release_requested_) throw ClosedError(env, "the iterator is closed");
  if (busy_) throw Napi::Error::New(env, "the iterator is busy with an asynchronous read");
  return *iterator_;
}

rocksdb::Status Iterator::ReadChunk(size_t limit, size_t max_bytes, Chunk* chunk) {
  rocksdb::Iterator& it = *iterator_;
  if (!started_) {
    started_ = true;
    if (reverse_) {
      it.SeekToLast();
    } else {
      it.SeekToFirst();
    }
  }
  size_t count = 0;
  while (it.Valid() && count < limit && (count == 0 || chunk->data.size() < max_bytes)) {
    rocksdb::Slice key = it.key();
    rocksdb::Slice value = it.value();
    chunk->data.append(key.data(), key.size());
    chunk->data.append(value.data(), value.size());
    chunk->lengths.push_back(static_cast<uint32_t>(key.size()));
    chunk->lengths.push_back(static_cast<uint32_t>(value.size()));
    count++;
    if (reverse_) {
      it.Prev();
    } else {
      it.Next();
    }
  }
  chunk->done = !it.Valid();
  return it.status();
}

// nextChunk(limit, maxBytes?): the next entries, packed (see Chunk::Pack).
Napi::Value Iterator::NextChunk(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  RequireIdle(env);
  auto [limit, max_bytes] = ChunkArguments(info);
  Chunk chunk;
  Check(env, ReadChunk(limit, max_bytes, &chunk), "iterate");
  return chunk.Pack(env);
}

class Iterator::ChunkWorker : public PromiseWorker {
 public:
  ChunkWorker(Napi::Env env, Iterator* iterator, size_t limit, size_t max_bytes)
      : PromiseWorker(env, "nest-streams:rocksdb:iterate"),
        iterator_(iterator),
        database_(iterator->database_),
        limit_(limit),
        max_bytes_(max_bytes) {
    iterator_->busy_ = true;
    iterator_->Ref();
    database_->BeginCall();
  }

 protected:
  rocksdb::Status Run() override { return iterator_->ReadChunk(limit_, max_bytes_, &chunk_); }
  Napi::Value Result(Napi::Env env) override { return chunk_.Pack(env); }
  void Completed(const rocksdb::Status&) override {
    iterator_->busy_ = false;
    if (iterator_->release_requested_) iterator_->Release();
    iterator_->Unref();
    database_->EndCall();
  }
  std::string Operation() const override { return "iterate"; }

 private:
  Iterator* iterator_;
  Database* database_;
  size_t limit_, max_bytes_;
  Chunk chunk_;
};

// nextChunkAsync(limit, maxBytes?): Promise<packed chunk>, read on the libuv pool.
Napi::Value Iterator::NextChunkAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  RequireIdle(env);
  auto [limit, max_bytes] = ChunkArguments(info);
  auto* worker = new ChunkWorker(env, this, limit, max_bytes);
  worker->Queue();
  return worker->Promise();
}

// close(): idempotent.
void Iterator::Close(const Napi::CallbackInfo&) { Release(); }

}  // namespace nsr
