#include "batch.h"

#include <rocksdb/write_batch.h>

namespace nsr {

rocksdb::Status ToWriteBatch(const rocksdb::Slice& encoded, rocksdb::WriteBatch* batch) {
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
