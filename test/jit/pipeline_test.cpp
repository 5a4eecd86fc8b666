// The compile step: archs, outputs, template arguments, resources, the hash, the memory cache.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include "cute_dsl/layout/tree_basics.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace jit_test {
extern std::atomic<long> g_allocations;
}

namespace {

using namespace jit_test;

bool is_elf(const std::string& bytes) { return bytes.size() > 4 && bytes.compare(0, 4, "\x7f" "ELF") == 0; }

// The SM number a CUBIN was built for, from its ELF header's e_flags (offset 0x30 of a 64-bit
// ELF): bits 8..15 from ELF ABI version 8 on (CUDA 12.8+), bits 0..7 before.
int cubin_sm(const std::string& bytes) {
  if (bytes.size() < 0x34) return -1;
  std::uint32_t flags = 0;
  std::memcpy(&flags, bytes.data() + 0x30, sizeof flags);
  return static_cast<unsigned char>(bytes[8]) >= 8 ? static_cast<int>((flags >> 8) & 0xff) : static_cast<int>(flags & 0xff);
}

TEST(Pipeline, CompilesCubinForEachArchWithoutAGpu) {
  for (const char* arch : {"sm_80", "sm_90a", "sm_100a"}) {
    jit::KernelCache cache(memory_only());
    auto k = jit::compile(elementwise_spec(), options_for(arch), cache);
    ASSERT_TRUE(k) << arch << ": " << k.error().describe();
    EXPECT_EQ((*k)->arch, arch);
    EXPECT_TRUE(is_elf((*k)->binary)) << arch;
    EXPECT_EQ(cubin_sm((*k)->binary), std::atoi(arch + 3)) << arch << ": the CUBIN is for that SM";
    EXPECT_TRUE((*k)->lowered_name.starts_with("_Z")) << (*k)->lowered_name;
    auto usage = jit::read_resource_usage((*k)->binary, (*k)->lowered_name);
    ASSERT_TRUE(usage) << usage.error().describe();
    EXPECT_GT(usage->registers, 0) << arch;
    EXPECT_LE(usage->registers, 255);
    EXPECT_EQ(usage->max_threads, 128) << "from __launch_bounds__(128)";
    EXPECT_EQ(usage->local_bytes, 0);
  }
}

TEST(Pipeline, PtxOnRequest) {
  jit::KernelCache cache(memory_only());
  auto o = options_for("sm_90a");
  o.output = jit::OutputKind::ptx;
  auto k = jit::compile(elementwise_spec(), o, cache);
  ASSERT_TRUE(k) << k.error().describe();
  EXPECT_NE((*k)->binary.find(".entry " + (*k)->lowered_name), std::string::npos);
  EXPECT_NE((*k)->binary.find(".target sm_90a"), std::string::npos);
  EXPECT_FALSE(jit::read_resource_usage((*k)->binary, (*k)->lowered_name)) << "PTX has no resource figures";
}

TEST(Pipeline, LayoutArgumentsBecomeStaticTypes) {
  auto args = jit::parse_template_args("f16, ((2,2),4):((1,8),2), -3, true, type:unsigned");
  ASSERT_TRUE(args) << args.error().describe();
  ASSERT_EQ(args->size(), 5u);
  EXPECT_EQ((*args)[0].cpp(), "__half");
  EXPECT_EQ((*args)[0].required_header(), "cuda_fp16.h");
  EXPECT_EQ((*args)[1].cpp(),
            "cute_dsl::Layout<cute_dsl::tuple<cute_dsl::tuple<cute_dsl::C<2>, cute_dsl::C<2>>, cute_dsl::C<4>>, "
            "cute_dsl::tuple<cute_dsl::tuple<cute_dsl::C<1>, cute_dsl::C<8>>, cute_dsl::C<2>>>");
  EXPECT_EQ((*args)[2].cpp(), "-3");
  EXPECT_EQ((*args)[3].cpp(), "true");
  EXPECT_EQ((*args)[4].cpp(), "unsigned");
  EXPECT_EQ(jit::TemplateArg::layout(cute_dsl::tree::make_tree_leaf(8, 1)).cpp(),
            "cute_dsl::Layout<cute_dsl::C<8>, cute_dsl::C<1>>");
  EXPECT_FALSE(jit::parse_template_args("f17"));
  EXPECT_FALSE(jit::parse_template_args("(4,2):(1)"));  // not congruent
  EXPECT_FALSE(jit::parse_template_args("f32,,4"));
}

TEST(Pipeline, EveryElementTypeCompiles) {
  // The CUDA headers for f16/bf16/fp8 come from the toolkit, included only when used.
  jit::KernelCache cache(memory_only());
  for (const char* t : {"f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f8e4m3",
                        "f8e5m2"}) {
    auto k = jit::compile(elementwise_spec(std::string(t) + ", 32:1, 32"), options_for("sm_90a"), cache);
    EXPECT_TRUE(k) << t << ": " << (k ? "" : k.error().describe());
  }
}

TEST(Pipeline, ResourcesReadFromTheCubin) {
  jit::KernelSpec spec;
  spec.source = R"(
template <int N>
__global__ void staged(float* out, int k) {
  __shared__ float tile[N];
  float local[512];                        // too big for registers, indexed at run time:
  for (int i = 0; i < 512; ++i) local[i] = out[i * k];
  tile[threadIdx.x % N] = local[k & 511];  // the array lives on the stack
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % N];
}
)";
  spec.kernel = "staged";
  spec.template_args = {jit::TemplateArg::integer(256)};
  jit::KernelCache cache(memory_only());
  for (const char* arch : {"sm_80", "sm_90a"}) {
    auto k = jit::compile(spec, options_for(arch), cache);
    ASSERT_TRUE(k) << k.error().describe();
    auto usage = jit::read_resource_usage((*k)->binary, (*k)->lowered_name);
    ASSERT_TRUE(usage) << usage.error().describe();
    // sm_80: exactly the array. sm_90+: ptxas adds the 1 KiB the system reserves per block.
    EXPECT_EQ(usage->shared_bytes, 256 * 4 + (std::string_view(arch) == "sm_80" ? 0 : 1024)) << arch;
    EXPECT_GE(usage->local_bytes, 512 * 4) << arch;
    EXPECT_EQ(usage->max_threads, 0);
  }

  auto capped = options_for("sm_90a");
  capped.max_registers = 24;
  auto c = jit::compile(elementwise_spec("f64, (64,64):(64,1), 256"), capped, cache);
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_LE(jit::read_resource_usage((*c)->binary, (*c)->lowered_name)->registers, 24);
}

TEST(Pipeline, MemoryHitReturnsTheSameKernelAndAllocatesNothing) {
  jit::KernelCache cache(memory_only());
  const auto spec = elementwise_spec();
  const auto options = options_for("sm_90a");
  jit::CompileReport report;
  auto first = jit::compile(spec, options, cache, &report);
  ASSERT_TRUE(first) << first.error().describe();
  EXPECT_EQ(report.outcome, jit::CacheOutcome::miss);
  const long before = g_allocations.load();
  auto second = jit::compile(spec, options, cache, &report);
  const long allocations = g_allocations.load() - before;
  ASSERT_TRUE(second);
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit);
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(allocations, 0);

  constexpr int kLookups = 20000;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kLookups; ++i) (void)jit::compile(spec, options, cache);
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / kLookups;
  std::printf("memory hit: %.0f ns per lookup (spec with a %zu-byte header)\n", ns, spec.headers[0].contents.size());
  EXPECT_EQ(cache.counters().memory_hits, static_cast<std::uint64_t>(kLookups) + 1);

  // The prepared form hashes nothing per lookup and finds the same kernel.
  const jit::PreparedSpec prepared = jit::prepare(spec, options);
  const long before_prepared = g_allocations.load();
  auto third = jit::compile(prepared, cache, &report);
  EXPECT_EQ(g_allocations.load() - before_prepared, 0);
  ASSERT_TRUE(third);
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit);
  EXPECT_EQ(first->get(), third->get());
  const auto start_prepared = std::chrono::steady_clock::now();
  for (int i = 0; i < kLookups; ++i) (void)jit::compile(prepared, cache);
  const double prepared_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start_prepared).count() / kLookups;
  std::printf("memory hit, prepared spec: %.0f ns per lookup\n", prepared_ns);
}

TEST(Pipeline, ChangedOptionHeaderOrArgumentMisses) {
  jit::KernelCache cache(memory_only());
  const auto base = elementwise_spec();
  auto key_of = [&](const jit::KernelSpec& s, const jit::CompileOptions& o) {
    jit::CompileReport r;
    auto k = jit::compile(s, o, cache, &r);
    EXPECT_TRUE(k) << (k ? "" : k.error().describe());
    EXPECT_EQ(r.outcome, jit::CacheOutcome::miss);
    return k ? (*k)->key.hex() : std::string();
  };
  std::set<std::string> keys;
  keys.insert(key_of(base, options_for("sm_90a")));
  auto fast = options_for("sm_90a");
  fast.fast_math = true;
  keys.insert(key_of(base, fast));
  auto o1 = options_for("sm_90a");
  o1.opt_level = 1;
  keys.insert(key_of(base, o1));
  auto defined = options_for("sm_90a");
  defined.defines = {"CUTE_DSL_TEST_DEFINE=1"};
  keys.insert(key_of(base, defined));
  keys.insert(key_of(base, options_for("sm_80")));
  auto edited = base;
  edited.headers[0].contents += "\n// an edit\n";
  keys.insert(key_of(edited, options_for("sm_90a")));
  keys.insert(key_of(elementwise_spec("f32, (4,8):(8,1), 64"), options_for("sm_90a")));
  EXPECT_EQ(keys.size(), 7u);
}

TEST(Hash, LanesAreIndependentAndInputsAreDelimited) {
  using jit::Hasher;
  EXPECT_FALSE(Hasher().add("ab").add("c").finish() == Hasher().add("a").add("bc").finish());
  EXPECT_FALSE(jit::hash128("") == jit::hash128(std::string_view("\0", 1)));
  // Every single-bit change of a 24-byte input changes both lanes.
  const std::string base = "cute_dsl jit hash input.";
  const auto h0 = jit::hash128(base);
  for (std::size_t i = 0; i < base.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string s = base;
      s[i] = static_cast<char>(s[i] ^ (1 << bit));
      const auto h = jit::hash128(s);
      EXPECT_NE(h.hi, h0.hi);
      EXPECT_NE(h.lo, h0.lo);
    }
  // The key must be stable across runs and builds: a change here needs a new disk format version.
  EXPECT_EQ(jit::hash128("abc").hex(), jit::hash128(std::string("abc")).hex());
  EXPECT_EQ(jit::hash128("abc").hex().size(), 32u);
}

}  // namespace

namespace {

TEST(Hash, LongInputsUseEveryByte) {
  // Inputs long enough for the stripe accumulators: a flip anywhere changes both halves.
  std::string base(200, 'a');
  for (std::size_t i = 0; i < base.size(); ++i) base[i] = static_cast<char>('a' + i % 26);
  const auto h0 = cute_dsl::jit::hash128(base);
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::string s = base;
    s[i] ^= 0x04;
    const auto h = cute_dsl::jit::hash128(s);
    EXPECT_NE(h.hi, h0.hi) << i;
    EXPECT_NE(h.lo, h0.lo) << i;
  }
  EXPECT_FALSE(cute_dsl::jit::hash128(base) == cute_dsl::jit::hash128(base + "x"));
}

}  // namespace

namespace {

using namespace jit_test;

TEST(Pipeline, ThreadsShareOneCache) {
  // Concurrent misses on one request may each compile; all get a kernel, and afterwards every
  // thread hits the one kept in memory.
  jit::KernelCache cache(memory_only());
  const auto spec = elementwise_spec();
  const auto options = options_for("sm_80");
  std::vector<std::string> keys(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        auto k = jit::compile(spec, options, cache);
        if (k) keys[t] = (*k)->key.hex();
      }
    });
  for (auto& th : threads) th.join();
  for (const auto& k : keys) EXPECT_EQ(k, keys[0]);
  EXPECT_FALSE(keys[0].empty());
  const auto c = cache.counters();
  EXPECT_EQ(c.memory_hits + c.misses, 200u);
  EXPECT_GE(c.misses, 1u);
  EXPECT_LE(c.misses, 4u);
}

}  // namespace
