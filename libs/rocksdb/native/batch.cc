#include "batch.h"

#include <rocksdb/write_batch.h>

#include <algorithm>
#include <vector>

namespace nsr {

namespace {

struct BatchRecord {
  BatchOp op;
  rocksdb::Slice key;
  rocksdb::Slice value;
};

rocksdb::Status ToKeyOrderedWriteBatch(const rocksdb::Slice& encoded,
                                       rocksdb::WriteBatch* batch) {
  std::vector<BatchRecord> records;
  rocksdb::Status status = ForEachBatchRecord(
      encoded, [&records](BatchOp op, const rocksdb::Slice& key, const rocksdb::Slice& value) {
        if (op == BatchOp::kDeleteRange) {
          return rocksdb::Status::InvalidArgument("a batch with a deleteRange cannot be reordered");
        }
        records.push_back({op, key, value});
        return rocksdb::Status::OK();
      });
  if (!status.ok()) return status;
  std::stable_sort(records.begin(), records.end(),
                   [](const BatchRecord& a, const BatchRecord& b) { return a.key.compare(b.key) < 0; });
  for (size_t i = 0; i < records.size(); i++) {
    const BatchRecord& record = records[i];
    if (i + 1 < records.size() && records[i + 1].key == record.key) continue;  // a later write wins
    status = record.op == BatchOp::kPut ? batch->Put(record.key, record.value)
                                        : batch->Delete(record.key);
    if (!status.ok()) return status;
  }
  return rocksdb::Status::OK();
}

}  // namespace

rocksdb::Status ToWriteBatch(const rocksdb::Slice& encoded, rocksdb::WriteBatch* batch,
                             bool key_order) {
  if (key_order) return ToKeyOrderedWriteBatch(encoded, batch);
  return ForEachBatchRecord(
      encoded, [batch](BatchOp op, const rocksdb::Slice& key, const rocksdb::Slice& value) {
        switch (op) {
          case BatchOp::kPut:
            return batch->Put(key, value);
          case BatchOp::kDelete:
            return batch->Delete(key);
          case BatchOp::kDeleteRange:
            return batch->DeleteRange(key, value);
        }
        return rocksdb::Status::InvalidArgument("unknown write batch operation");
      });
}

}  // namespace nsr
