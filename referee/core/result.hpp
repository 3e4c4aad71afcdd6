#pragma once
// A small Result<T, E> (GCC 12 has no std::expected): a value or an error, never both.
// Bad input from outside (a bot, a file, a flag) travels as a Result and becomes a message;
// invariants of our own code are asserts.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace arena {

template <typename E>
struct Error {
  E value;
};

template <typename E>
Error<std::decay_t<E>> fail(E&& e) {
  return {std::forward<E>(e)};
}

template <typename T, typename E = std::string>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  template <typename E2>
  Result(Error<E2> e) : v_(std::in_place_index<1>, E(std::move(e.value))) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  const E& error() const {
    assert(!ok());
    return std::get<1>(v_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, E> v_;
};

// Result<void, E>: success carries nothing.
template <typename E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  template <typename E2>
  Result(Error<E2> e) : error_(E(std::move(e.value))), ok_(false) {}

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const E& error() const {
    assert(!ok_);
    return error_;
  }

 private:
  E error_{};
  bool ok_ = true;
};

using Status = Result<void, std::string>;

}  // namespace arena
