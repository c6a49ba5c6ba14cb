// Results packed into one Buffer, so that a multi-get or an iterator chunk crosses into JS as
// one allocation; the TypeScript side slices it (see src/internals/packed.ts).
//
// Multi-get: u32 count, then count i32 lengths (-1: not found), then the values' bytes.
#pragma once

#include <napi.h>
#include <rocksdb/slice.h>

#include <cstdint>
#include <cstring>

namespace nsr {

// Packs `count` optional values; `found(i)` tells whether value i exists, `value(i)` its bytes.
template <typename Found, typename Value>
Napi::Buffer<char> PackValues(Napi::Env env, size_t count, Found&& found, Value&& value) {
  size_t total = 4 + 4 * count;
  for (size_t i = 0; i < count; i++) {
    if (found(i)) total += value(i).size();
  }
  Napi::Buffer<char> out = Napi::Buffer<char>::New(env, total);
  char* header = out.Data();
  char* data = header + 4 + 4 * count;
  auto n = static_cast<uint32_t>(count);
  std::memcpy(header, &n, 4);
  for (size_t i = 0; i < count; i++) {
    int32_t length = -1;
    if (found(i)) {
      rocksdb::Slice bytes = value(i);
      length = static_cast<int32_t>(bytes.size());
      std::memcpy(data, bytes.data(), bytes.size());
      data += bytes.size();
    }
    std::memcpy(header + 4 + 4 * i, &length, 4);
  }
  return out;
}

}  // namespace nsr
