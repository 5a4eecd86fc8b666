// A 128-bit non-cryptographic content hash: the identity of a cache entry.
//
// Two independent 64-bit lanes, each a multiply-rotate accumulator over 8-byte words with its
// own primes and seed, plus four stripe accumulators for bulk bytes (xxHash's structure),
// finished with a full-avalanche mix (MurmurHash3's fmix64) of everything into each half. Why not std::hash: it is 64 bits, unspecified across implementations and not stable
// across runs or versions, and the disk cache key must be stable forever for a given format
// version. 128 bits makes an accidental collision between cache entries negligible (~2^-64 at
// 2^32 entries). It is not a defence against an adversary who can write the cache directory.
#pragma once

#include "cute_dsl/config.hpp"  // first: the C++20 check

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace cute_dsl::jit {

struct Hash128 {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  friend bool operator==(const Hash128&, const Hash128&) = default;
  std::string hex() const;  // 32 lowercase hex digits, hi first
};

struct Hash128Hasher {  // for unordered containers: the value is already uniform
  std::size_t operator()(const Hash128& h) const noexcept { return static_cast<std::size_t>(h.lo ^ h.hi); }
};

class Hasher {
 public:
  Hasher() = default;

  // Streams bytes in. Each add_* call is length-prefixed, so ("ab","c") and ("a","bc") differ.
  // Long inputs go 32 bytes at a time through four independent accumulators (no dependency
  // between them, so the multiplies overlap); the rest word by word through the two lanes.
  Hasher& add_bytes(const void* data, std::size_t size) {
    add_word(static_cast<std::uint64_t>(size) ^ 0x9e3779b97f4a7c15ULL);
    const auto* p = static_cast<const unsigned char*>(data);
    while (size >= 32) {
      std::uint64_t w[4];
      std::memcpy(w, p, 32);
      for (int i = 0; i < 4; ++i) v_[i] = rotl(v_[i] + w[i] * kP2, 31) * kP1;
      p += 32;
      size -= 32;
      stripes_ = true;
    }
    while (size >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      add_word(w);
      p += 8;
      size -= 8;
    }
    if (size > 0) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, size);
      add_word(w ^ (std::uint64_t{0xff} << 56));
    }
    return *this;
  }
  Hasher& add(std::string_view s) { return add_bytes(s.data(), s.size()); }
  // Without this, a string literal would pick add(bool) (a standard conversion beats string_view's).
  Hasher& add(const char* s) { return add(std::string_view(s)); }
  Hasher& add(std::uint64_t v) { add_word(v); return *this; }
  Hasher& add(std::int64_t v) { add_word(static_cast<std::uint64_t>(v)); return *this; }
  Hasher& add(int v) { add_word(static_cast<std::uint64_t>(static_cast<std::int64_t>(v))); return *this; }
  Hasher& add(bool v) { add_word(v ? 0x51ULL : 0x50ULL); return *this; }
  Hasher& add(const Hash128& h) { add_word(h.hi); add_word(h.lo); return *this; }

  Hash128 finish() const {
    const std::uint64_t n = words_;
    std::uint64_t m1 = 0, m2 = 0;
    if (stripes_) {
      m1 = fmix(v_[0] ^ rotl(v_[2], 23));
      m2 = fmix(v_[1] ^ rotl(v_[3], 37));
    }
    return {fmix(a_ + rotl(b_, 17) + n * kP5 + m1 * kP1 + m2), fmix(b_ ^ rotl(a_, 41) ^ (n * kP2) ^ (m2 * kP3 + m1))};
  }

 private:
  static constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ULL;
  static constexpr std::uint64_t kP2 = 0xC2B2AE3D27D4EB4FULL;
  static constexpr std::uint64_t kP3 = 0x165667B19E3779F9ULL;
  static constexpr std::uint64_t kP4 = 0x85EBCA77C2B2AE63ULL;
  static constexpr std::uint64_t kP5 = 0x27D4EB2F165667C5ULL;

  static constexpr std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static constexpr std::uint64_t fmix(std::uint64_t k) {  // MurmurHash3's 64-bit finalizer
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
  }
  void add_word(std::uint64_t w) {
    a_ = rotl(a_ + w * kP2, 31) * kP1;
    b_ = rotl(b_ ^ (w * kP4), 29) * kP3 + kP5;
    ++words_;
  }

  std::uint64_t a_ = 0x243F6A8885A308D3ULL;  // two unrelated seeds (digits of pi, of e)
  std::uint64_t b_ = 0xB7E151628AED2A6AULL;
  std::uint64_t words_ = 0;
  std::uint64_t v_[4] = {0x9E3779B97F4A7C15ULL, 0xBF58476D1CE4E5B9ULL, 0x94D049BB133111EBULL, 0x2545F4914F6CDD1DULL};
  bool stripes_ = false;
};

inline Hash128 hash128(std::string_view s) { return Hasher().add(s).finish(); }

}  // namespace cute_dsl::jit
