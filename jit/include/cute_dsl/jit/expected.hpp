// Expected<T, E>: a value or a typed error, the return type of every step of the JIT pipeline.
// C++20 has no std::expected; this is the small subset we use (value, error, and_then-style
// checks by hand). Accessing the wrong alternative is a programming error and aborts.
#pragma once

#include "cute_dsl/config.hpp"  // first: the C++20 check

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>

namespace cute_dsl::jit {

template <class E>
struct Unexpected {
  E error;
};
template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
  return {std::forward<E>(e)};
}

template <class T, class E>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  template <class G>
  Expected(Unexpected<G> u) : storage_(std::in_place_index<1>, std::move(u.error)) {}

  bool has_value() const { return storage_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { check(true); return std::get<0>(storage_); }
  const T& value() const& { check(true); return std::get<0>(storage_); }
  T&& value() && { check(true); return std::get<0>(std::move(storage_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  E& error() & { check(false); return std::get<1>(storage_); }
  const E& error() const& { check(false); return std::get<1>(storage_); }

 private:
  void check(bool want_value) const {
    if (has_value() != want_value) {
      std::fprintf(stderr, "cute_dsl::jit::Expected: accessed the %s of a result that holds %s\n",
                   want_value ? "value" : "error", want_value ? "an error" : "a value");
      std::abort();
    }
  }
  std::variant<T, E> storage_;
};

// Expected<void, E>: success carries nothing.
struct Ok {};

}  // namespace cute_dsl::jit
