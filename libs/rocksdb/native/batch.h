// The encoded write batch the TypeScript WriteBatch builds: one Buffer per batch, so that a
// write of a thousand entries is one call into the addon.
//
// Records, little-endian: u8 op, u32 key length, key, then for op 1 (put) u32 value length and
// value, for op 2 (delete) nothing, for op 3 (deleteRange, end exclusive) u32 end length, end.
#pragma once

#include <napi.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include <cstdint>
#include <cstring>

namespace nsr {

enum class BatchOp : uint8_t { kPut = 1, kDelete = 2, kDeleteRange = 3 };

// Calls `visit(op, key, value_or_end)` for each record; returns the first non-OK status of
// `visit`, or InvalidArgument for a malformed encoding. Slices point into `data`.
template <typename Visit>
rocksdb::Status ForEachBatchRecord(const rocksdb::Slice& data, Visit&& visit) {
  const char* at = data.data();
  const char* end = at + data.size();
  auto read_slice = [&](rocksdb::Slice* out) {
    uint32_t length;
    if (end - at < 4) return false;
    std::memcpy(&length, at, 4);  // little-endian hosts only (x64, arm64)
    at += 4;
    if (static_cast<uint64_t>(end - at) < length) return false;
    *out = rocksdb::Slice(at, length);
    at += length;
    return true;
  };
  while (at < end) {
    auto op = static_cast<BatchOp>(static_cast<uint8_t>(*at++));
    rocksdb::Slice key, value;
    if (!read_slice(&key)) return rocksdb::Status::InvalidArgument("malformed write batch");
    if (op == BatchOp::kPut || op == BatchOp::kDeleteRange) {
      if (!read_slice(&value)) return rocksdb::Status::InvalidArgument("malformed write batch");
    } else if (op != BatchOp::kDelete) {
      return rocksdb::Status::InvalidArgument("unknown write batch operation");
    }
    rocksdb::Status status = visit(op, key, value);
    if (!status.ok()) return status;
  }
  return rocksdb::Status::OK();
}

}  // namespace nsr

namespace rocksdb {
class WriteBatch;
}

namespace nsr {

// Decodes an encoded batch into a RocksDB write batch (copying the bytes). With `key_order`,
// the writes go in in key order (a stable sort: for one key the last write still wins, and
// only that one is kept), which the memtable's skip list inserts several times faster than
// random order; InvalidArgument for a batch with a deleteRange, which cannot be reordered.
rocksdb::Status ToWriteBatch(const rocksdb::Slice& encoded, rocksdb::WriteBatch* batch,
                             bool key_order = false);

}  // namespace nsr
