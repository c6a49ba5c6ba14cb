// A JS object holding a RocksDB object that databases share (a block cache, a write-buffer
// manager): databases opened with it keep their own reference, and close() drops this one.
#pragma once

#include <napi.h>

#include <memory>
#include <string>
#include <vector>

#include "common.h"

namespace nsr {

// `Self` names its JS class (`kClassName`), the message for calls after close()
// (`kClosedMessage`) and where the addon keeps its constructor (`kConstructor`).
template <typename Self, typename T>
class SharedHandle : public Napi::ObjectWrap<Self> {
 public:
  explicit SharedHandle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Self>(info) {}

  // The object behind a JS `Self` given as option `name`, or a TypeError / the closed error.
  static std::shared_ptr<T> From(const Napi::Value& value, const char* name) {
    Napi::Env env = value.Env();
    if (!value.IsObject() ||
        !value.As<Napi::Object>().InstanceOf((Data(env).*Self::kConstructor).Value())) {
      throw Napi::TypeError::New(env, std::string(name) + " must be a " + Self::kClassName);
    }
    Self* self = Self::Unwrap(value.As<Napi::Object>());
    if (!self->shared_) throw ClosedError(env, std::string(name) + " is closed");
    return self->shared_;
  }

 protected:
  using Methods = std::vector<Napi::ClassPropertyDescriptor<Self>>;

  // The JS class with `methods` and close().
  static Napi::Function DefineHandle(Napi::Env env, Methods methods) {
    methods.push_back(Napi::ObjectWrap<Self>::InstanceMethod("close", &SharedHandle::Close));
    return Napi::ObjectWrap<Self>::DefineClass(env, Self::kClassName, methods);
  }

  // A method returning one of the object's sizes (or a flag) as a JS number (or boolean).
  template <typename Result, Result (T::*Read)() const>
  static typename Napi::ClassPropertyDescriptor<Self> Getter(const char* name) {
    return Napi::ObjectWrap<Self>::InstanceMethod(name, &SharedHandle::Get<Result, Read>);
  }

  T& Require(Napi::Env env) const {
    if (!shared_) throw ClosedError(env, Self::kClosedMessage);
    return *shared_;
  }

  std::shared_ptr<T> shared_;

 private:
  template <typename Result, Result (T::*Read)() const>
  Napi::Value Get(const Napi::CallbackInfo& info) {
    Result result = (Require(info.Env()).*Read)();
    if constexpr (std::is_same_v<Result, bool>) {
      return Napi::Boolean::New(info.Env(), result);
    } else {
      return Napi::Number::New(info.Env(), static_cast<double>(result));
    }
  }

  void Close(const Napi::CallbackInfo&) { shared_.reset(); }
};

}  // namespace nsr
