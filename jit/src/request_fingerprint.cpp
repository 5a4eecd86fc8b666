#include "request_fingerprint.hpp"

#include <cstdint>
#include <cstring>

namespace cute_dsl::jit::detail {

namespace {

constexpr std::uint64_t kP0 = 0xa0761d6478bd642fULL;  // wyhash's constants
constexpr std::uint64_t kP1 = 0xe7037ed1a0b428dbULL;
constexpr std::uint64_t kP2 = 0x8ebc6af09c88c6e3ULL;
constexpr std::uint64_t kP3 = 0x589965cc75374cc3ULL;

inline std::uint64_t mum(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}
inline std::uint64_t read64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint64_t read32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Two independent lanes; successive fields alternate between them so that their multiplies
// overlap instead of forming one dependency chain.
class RequestHasher {
 public:
  void add(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t n = s.size();
    std::uint64_t& lane = next_lane();
    lane ^= n * kP3;  // length first: ("ab","c") and ("a","bc") differ
    while (n > 32) {  // long text (a layout's spelling): both lanes, two independent multiplies
      a_ = mum(read64(p) ^ kP1, read64(p + 8) ^ a_);
      b_ = mum(read64(p + 16) ^ kP2, read64(p + 24) ^ b_);
      p += 32;
      n -= 32;
    }
    while (n > 16) {
      lane = mum(read64(p) ^ kP1, read64(p + 8) ^ lane);
      p += 16;
      n -= 16;
    }
    std::uint64_t lo = 0, hi = 0;
    if (n >= 4) {  // wyhash's overlapping reads cover 4..16 bytes without a loop
      lo = (read32(p) << 32) | read32(p + ((n >> 3) << 2));
      hi = (read32(p + n - 4) << 32) | read32(p + n - 4 - ((n >> 3) << 2));
    } else if (n > 0) {
      lo = (std::uint64_t{p[0]} << 16) | (std::uint64_t{p[n >> 1]} << 8) | p[n - 1];
    }
    lane = mum(lo ^ kP1, hi ^ lane ^ kP2);
  }
  void add(std::uint64_t v) {
    std::uint64_t& lane = next_lane();
    lane = mum(v ^ kP1, lane ^ kP0);
  }
  Hash128 finish() const {
    return {mum(a_ ^ kP0, b_ ^ kP2) ^ count_, mum(b_ ^ kP1, a_ ^ kP3 ^ count_)};
  }

 private:
  std::uint64_t& next_lane() { return (count_++ & 1) ? b_ : a_; }
  std::uint64_t a_ = 0x243F6A8885A308D3ULL, b_ = 0xB7E151628AED2A6AULL, count_ = 0;
};

}  // namespace

// A field added to either struct must be added here too, or two requests that differ only in it
// would share a memory entry. The size checks catch the addition on the usual 64-bit ABI.
static_assert(sizeof(void*) != 8 || sizeof(CompileOptions) == 192,
              "CompileOptions changed: add the new field to detail::request_fingerprint(), then update this size");
static_assert(sizeof(void*) != 8 || sizeof(KernelSpec) == 176,
              "KernelSpec changed: add the new field to detail::request_fingerprint() (or, for bulk text, to "
              "same_bulk_text()), then update this size");

Hash128 request_fingerprint(const KernelSpec& spec, const CompileOptions& o, std::string_view auto_arch) {
  RequestHasher h;
  h.add(spec.header);
  h.add(spec.kernel);
  h.add(spec.source_name);
  h.add(static_cast<std::uint64_t>(spec.source.size()) | (std::uint64_t{spec.template_args.size()} << 40));
  for (const TemplateArg& a : spec.template_args) h.add(a.cpp());
  h.add(static_cast<std::uint64_t>(spec.headers.size()));
  for (const InMemoryHeader& hd : spec.headers) {
    h.add(hd.name);
    h.add(static_cast<std::uint64_t>(hd.contents.size()));
  }
  const bool is_auto = o.arch.empty() || o.arch == "auto";
  h.add(is_auto ? auto_arch : std::string_view(o.arch));
  h.add(static_cast<std::uint64_t>(o.device_libraries.size()));
  h.add(static_cast<std::uint64_t>(o.opt_level & 0xff) | std::uint64_t{o.line_info} << 8 |
        std::uint64_t{o.device_asserts} << 9 | std::uint64_t{o.fast_math} << 10 | std::uint64_t{is_auto} << 11 |
        static_cast<std::uint64_t>(o.output) << 12 | static_cast<std::uint64_t>(o.max_registers & 0xffff) << 16 |
        std::uint64_t{o.lto} << 13 | std::uint64_t{o.defines.size()} << 32 | std::uint64_t{o.extra_options.size()} << 48);
  for (const auto& d : o.defines) h.add(d);
  for (const auto& e : o.extra_options) h.add(e);
  for (const auto& lib : o.device_libraries) {  // hashed once, when the library was made
    h.add(lib.content_hash().hi);
    h.add(lib.content_hash().lo);
  }
  h.add(static_cast<std::uint64_t>(o.hooks.size()));
  for (const auto& k : o.hooks) {  // name and version; the callbacks cannot be hashed
    h.add(k.name);
    h.add(k.version);
  }
  return h.finish();
}

Hash128 bulk_hash(const KernelSpec& spec) {
  Hasher h;
  h.add(spec.source).add(static_cast<std::uint64_t>(spec.headers.size()));
  for (const InMemoryHeader& hd : spec.headers) h.add(hd.contents);
  return h.finish();
}

bool same_bulk_text(const KernelSpec& a, const KernelSpec& b) {
  if (a.source != b.source || a.headers.size() != b.headers.size()) return false;
  for (std::size_t i = 0; i < a.headers.size(); ++i)
    if (a.headers[i].contents != b.headers[i].contents) return false;
  return true;
}

}  // namespace cute_dsl::jit::detail
