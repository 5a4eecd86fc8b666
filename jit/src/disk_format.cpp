// One disk-cache entry as bytes. Layout (all integers little-endian, as on every CUDA host):
//   0   char[8]  magic "CUTEDSLK"
//   8   u32      format version (kDiskFormatVersion)
//   12  u32      header bytes (kHeaderBytes)
//   16  u64 x2   content key (hi, lo)
//   32  u32      output kind (0 cubin, 1 ptx);  u32 reserved (0)
//   40  u64 x5   sizes: name expression, lowered name, arch, binary, log
//   80  u64 x2   checksum (Hash128) of the payload
//   96  u64      checksum of bytes 0..95 (low half of their Hash128)
//   104 payload: the five strings, back to back
// Any mismatch (magic, version, sizes against the file size, either checksum, the key) makes
// the entry invalid; the cache then removes it and compiles again.
#include "cute_dsl/jit/cache.hpp"

#include <cstring>

namespace cute_dsl::jit {

namespace {

constexpr std::size_t kHeaderBytes = 104;
constexpr std::size_t kStrings = 5;

void put32(std::string& out, std::size_t at, std::uint32_t v) { std::memcpy(out.data() + at, &v, 4); }
void put64(std::string& out, std::size_t at, std::uint64_t v) { std::memcpy(out.data() + at, &v, 8); }
std::uint32_t get32(std::string_view in, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, in.data() + at, 4);
  return v;
}
std::uint64_t get64(std::string_view in, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, in.data() + at, 8);
  return v;
}

}  // namespace

std::string encode_disk_entry(const CompiledKernel& k) {
  const std::string_view parts[kStrings] = {k.name_expression, k.lowered_name, k.arch, k.binary, k.log};
  std::string out(kHeaderBytes, '\0');
  std::memcpy(out.data(), kDiskMagic, 8);
  put32(out, 8, kDiskFormatVersion);
  put32(out, 12, static_cast<std::uint32_t>(kHeaderBytes));
  put64(out, 16, k.key.hi);
  put64(out, 24, k.key.lo);
  put32(out, 32, k.output == OutputKind::ptx ? 1u : 0u);
  Hasher payload;
  for (std::size_t i = 0; i < kStrings; ++i) {
    put64(out, 40 + 8 * i, parts[i].size());
    payload.add(parts[i]);
  }
  const Hash128 sum = payload.finish();
  put64(out, 80, sum.hi);
  put64(out, 88, sum.lo);
  put64(out, 96, hash128(std::string_view(out.data(), 96)).lo);
  for (auto p : parts) out.append(p);
  return out;
}

std::optional<CompiledKernel> decode_disk_entry(std::string_view in, const Hash128* expected_key) {
  if (in.size() < kHeaderBytes || std::memcmp(in.data(), kDiskMagic, 8) != 0) return std::nullopt;
  if (get32(in, 8) != kDiskFormatVersion || get32(in, 12) != kHeaderBytes) return std::nullopt;
  if (get64(in, 96) != hash128(in.substr(0, 96)).lo) return std::nullopt;
  std::uint64_t sizes[kStrings];
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < kStrings; ++i) {
    sizes[i] = get64(in, 40 + 8 * i);
    if (sizes[i] > in.size()) return std::nullopt;  // also keeps the sum from overflowing
    total += sizes[i];
  }
  if (total != in.size() - kHeaderBytes) return std::nullopt;
  CompiledKernel k;
  k.key = {get64(in, 16), get64(in, 24)};
  if (expected_key && !(k.key == *expected_key)) return std::nullopt;
  const std::uint32_t kind = get32(in, 32);
  if (kind > 1) return std::nullopt;
  k.output = kind == 1 ? OutputKind::ptx : OutputKind::cubin;
  std::string* fields[kStrings] = {&k.name_expression, &k.lowered_name, &k.arch, &k.binary, &k.log};
  Hasher payload;
  std::size_t at = kHeaderBytes;
  for (std::size_t i = 0; i < kStrings; ++i) {
    const std::string_view part = in.substr(at, sizes[i]);
    payload.add(part);
    fields[i]->assign(part);
    at += sizes[i];
  }
  const Hash128 sum = payload.finish();
  if (sum.hi != get64(in, 80) || sum.lo != get64(in, 88)) return std::nullopt;
  return k;
}

std::string Hash128::hex() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[15 - i] = digits[(hi >> (4 * i)) & 0xf];
    out[31 - i] = digits[(lo >> (4 * i)) & 0xf];
  }
  return out;
}

}  // namespace cute_dsl::jit
