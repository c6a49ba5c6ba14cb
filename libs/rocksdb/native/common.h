// Helpers shared by the addon's classes: errors, buffers, promises on the libuv pool.
#pragma once

#include <napi.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include <string>

namespace nsr {

// Per-addon-instance data: the JS error classes the wrapper registered (see `setErrorClasses`)
// and the constructors of the wrapped classes.
struct AddonData {
  Napi::FunctionReference status_error;  // new (message, status, subcode, operation)
  Napi::FunctionReference closed_error;  // new (message)
  Napi::FunctionReference cache;
  Napi::FunctionReference write_buffer_manager;
  Napi::FunctionReference database;
  Napi::FunctionReference iterator;
  Napi::FunctionReference sst_file_writer;
};

AddonData& Data(Napi::Env env);

// The name of a RocksDB status code, e.g. "IOError", "Corruption".
const char* StatusName(const rocksdb::Status& status);

// A JS error for a failed RocksDB call: an instance of the registered status error class with
// the status name, subcode and what was being done.
Napi::Error StatusError(Napi::Env env, const rocksdb::Status& status, const std::string& operation);

// A JS error for a call on a closed database, iterator or writer.
Napi::Error ClosedError(Napi::Env env, const std::string& message);

// Throws unless `status` is OK.
inline void Check(Napi::Env env, const rocksdb::Status& status, const char* operation) {
  if (!status.ok()) throw StatusError(env, status, operation);
}

// The bytes of a Buffer argument (valid while the Buffer is), or a TypeError.
rocksdb::Slice BufferSlice(const Napi::Value& value, const char* name);

// A Buffer holding a copy of `slice`.
inline Napi::Buffer<char> CopyBuffer(Napi::Env env, const rocksdb::Slice& slice) {
  return Napi::Buffer<char>::Copy(env, slice.data(), slice.size());
}

// Optional fields of an options object, each checked for its type (TypeError otherwise).
bool OptionalBool(const Napi::Object& options, const char* name, bool fallback);
double OptionalNumber(const Napi::Object& options, const char* name, double fallback);
std::string OptionalString(const Napi::Object& options, const char* name,
                           const std::string& fallback);
// An integer option in [min, max], or a RangeError.
int64_t OptionalInteger(const Napi::Object& options, const char* name, int64_t fallback,
                        int64_t min, int64_t max);
// Integer argument `index` in [min, max] (`fallback` when undefined), or a RangeError.
int64_t IntegerArgument(const Napi::CallbackInfo& info, size_t index, const char* name,
                        int64_t fallback, int64_t min, int64_t max);
// The options object given as argument `index`; an empty object when undefined.
Napi::Object OptionsArgument(const Napi::CallbackInfo& info, size_t index);

// Runs `Run()` on the libuv pool and settles a promise with `Result()` or the failed status.
// Subclasses never touch JS values in `Run()`.
class PromiseWorker : public Napi::AsyncWorker {
 public:
  PromiseWorker(Napi::Env env, const char* name)
      : Napi::AsyncWorker(env, name), deferred_(Napi::Promise::Deferred::New(env)) {}

  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  virtual rocksdb::Status Run() = 0;
  virtual Napi::Value Result(Napi::Env env) { return env.Undefined(); }
  // Called on the main thread with the outcome, before the promise is settled.
  virtual void Completed(const rocksdb::Status& status) {}
  // What failed, for the error message.
  virtual std::string Operation() const = 0;

 private:
  void Execute() override;
  void OnOK() override;

  Napi::Promise::Deferred deferred_;
  rocksdb::Status status_;
};

}  // namespace nsr
