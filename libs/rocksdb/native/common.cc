#include "common.h"

#include <cmath>
#include <exception>

namespace nsr {

AddonData& Data(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }

const char* StatusName(const rocksdb::Status& status) {
  switch (status.code()) {
    case rocksdb::Status::kOk:
      return "OK";
    case rocksdb::Status::kNotFound:
      return "NotFound";
    case rocksdb::Status::kCorruption:
      return "Corruption";
    case rocksdb::Status::kNotSupported:
      return "NotSupported";
    case rocksdb::Status::kInvalidArgument:
      return "InvalidArgument";
    case rocksdb::Status::kIOError:
      return "IOError";
    case rocksdb::Status::kMergeInProgress:
      return "MergeInProgress";
    case rocksdb::Status::kIncomplete:
      return "Incomplete";
    case rocksdb::Status::kShutdownInProgress:
      return "ShutdownInProgress";
    case rocksdb::Status::kTimedOut:
      return "TimedOut";
    case rocksdb::Status::kAborted:
      return "Aborted";
    case rocksdb::Status::kBusy:
      return "Busy";
    case rocksdb::Status::kExpired:
      return "Expired";
    case rocksdb::Status::kTryAgain:
      return "TryAgain";
    case rocksdb::Status::kCompactionTooLarge:
      return "CompactionTooLarge";
    case rocksdb::Status::kColumnFamilyDropped:
      return "ColumnFamilyDropped";
    default:
      return "Unknown";
  }
}

Napi::Error StatusError(Napi::Env env, const rocksdb::Status& status,
                        const std::string& operation) {
  std::string message = "RocksDB failed to " + operation + ": " + status.ToString();
  AddonData& data = Data(env);
  if (data.status_error.IsEmpty()) {
    Napi::Error error = Napi::Error::New(env, message);
    error.Set("status", Napi::String::New(env, StatusName(status)));
    return error;
  }
  Napi::Object error = data.status_error.New({
      Napi::String::New(env, message),
      Napi::String::New(env, StatusName(status)),
      Napi::Number::New(env, static_cast<int>(status.subcode())),
      Napi::String::New(env, operation),
  });
  return Napi::Error(env, error);
}

Napi::Error ClosedError(Napi::Env env, const std::string& message) {
  AddonData& data = Data(env);
  if (data.closed_error.IsEmpty()) return Napi::Error::New(env, message);
  return Napi::Error(env, data.closed_error.New({Napi::String::New(env, message)}));
}

rocksdb::Slice BufferSlice(const Napi::Value& value, const char* name) {
  if (!value.IsBuffer()) {
    throw Napi::TypeError::New(value.Env(), std::string(name) + " must be a Buffer");
  }
  Napi::Buffer<char> buffer = value.As<Napi::Buffer<char>>();
  return rocksdb::Slice(buffer.Data(), buffer.Length());
}

namespace {

// Option `name`: undefined, or a value that `is` accepts (a TypeError saying it must be `type`).
Napi::Value TypedOption(const Napi::Object& options, const char* name,
                        bool (Napi::Value::*is)() const, const char* type) {
  Napi::Value value = options.Get(name);
  if (!value.IsUndefined() && !(value.*is)()) {
    throw Napi::TypeError::New(options.Env(), std::string(name) + " must be " + type);
  }
  return value;
}

// `number` when it is an integer in [min, max], or a RangeError naming `name`.
int64_t CheckedInteger(Napi::Env env, double number, const char* name, int64_t min, int64_t max) {
  if (!std::isfinite(number) || std::floor(number) != number || number < static_cast<double>(min) ||
      number > static_cast<double>(max)) {
    throw Napi::RangeError::New(env, std::string(name) + " must be an integer in [" +
                                         std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return static_cast<int64_t>(number);
}

}  // namespace

bool OptionalBool(const Napi::Object& options, const char* name, bool fallback) {
  Napi::Value value = TypedOption(options, name, &Napi::Value::IsBoolean, "a boolean");
  return value.IsUndefined() ? fallback : value.As<Napi::Boolean>().Value();
}

double OptionalNumber(const Napi::Object& options, const char* name, double fallback) {
  Napi::Value value = TypedOption(options, name, &Napi::Value::IsNumber, "a number");
  return value.IsUndefined() ? fallback : value.As<Napi::Number>().DoubleValue();
}

std::string OptionalString(const Napi::Object& options, const char* name,
                           const std::string& fallback) {
  Napi::Value value = TypedOption(options, name, &Napi::Value::IsString, "a string");
  return value.IsUndefined() ? fallback : value.As<Napi::String>().Utf8Value();
}

int64_t OptionalInteger(const Napi::Object& options, const char* name, int64_t fallback,
                        int64_t min, int64_t max) {
  double value = OptionalNumber(options, name, static_cast<double>(fallback));
  return CheckedInteger(options.Env(), value, name, min, max);
}

int64_t IntegerArgument(const Napi::CallbackInfo& info, size_t index, const char* name,
                        int64_t fallback, int64_t min, int64_t max) {
  Napi::Value value = info[index];
  if (value.IsUndefined()) return fallback;
  double number = value.IsNumber() ? value.As<Napi::Number>().DoubleValue() : NAN;
  return CheckedInteger(info.Env(), number, name, min, max);
}

Napi::Object OptionsArgument(const Napi::CallbackInfo& info, size_t index) {
  Napi::Value value = info[index];
  if (value.IsUndefined() || value.IsNull()) return Napi::Object::New(info.Env());
  if (!value.IsObject()) throw Napi::TypeError::New(info.Env(), "options must be an object");
  return value.As<Napi::Object>();
}

void PromiseWorker::Execute() {
  try {
    status_ = Run();
  } catch (const std::exception& error) {
    status_ = rocksdb::Status::Aborted(error.what());
  }
}

void PromiseWorker::OnOK() {
  Napi::Env env = Env();
  Napi::HandleScope scope(env);
  Completed(status_);
  try {
    if (status_.ok()) {
      deferred_.Resolve(Result(env));
    } else {
      deferred_.Reject(StatusError(env, status_, Operation()).Value());
    }
  } catch (const Napi::Error& error) {
    deferred_.Reject(error.Value());
  }
}

}  // namespace nsr
