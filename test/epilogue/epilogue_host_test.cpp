// Epilogue trees on the host (no GPU): every node kind evaluated by the host reference
// (evaluate_host) against formulas written out here, on a ragged 37 x 53 x 2 output with
// row- and column-major auxiliary tensors; the compile-time facts of trees (loads per element,
// outputs) proven with static_assert; the format conversions against bit-level references.
#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/epilogue/host_reference.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {

namespace ep = cute_dsl::epilogue;

constexpr int kM = 37, kN = 53, kL = 2;

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -3.f, float hi = 3.f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

double acc_value(int b, int r, int c) { return std::sin(0.3 * r + 0.7 * c + 1.1 * b) * 2.5; }

// Runs the host reference and checks D against `expect(b, r, c)` at every element.
template <class Tree>
void expect_d(Tree const& tree, const std::function<double(int, int, int)>& expect, double tol = 1e-12) {
  int bad = 0;
  ep::evaluate_host(tree, kM, kN, kL, acc_value, [&](int b, int r, int c, double v) {
    const double e = expect(b, r, c);
    if (!(std::abs(v - e) <= tol * (1 + std::abs(e))) && ++bad <= 5) ADD_FAILURE() << "D(" << b << "," << r << "," << c << ") = " << v << ", expected " << e;
  });
  EXPECT_EQ(bad, 0);
}

// ---- compile-time facts ----------------------------------------------------------------------
constexpr float* kNoFloats = nullptr;
using BiasGelu = decltype(ep::gelu(2.f * ep::acc() + ep::col_broadcast(static_cast<const float*>(nullptr))));
static_assert(ep::TreeInfo<BiasGelu>::kLeaves == 2 && ep::TreeInfo<BiasGelu>::kLoads == 2 && ep::TreeInfo<BiasGelu>::kOutputs == 0);
// The same bias used three times is one load; a second slot is a second input.
using Reused = decltype([] {
  const auto x = ep::acc() + ep::col_broadcast(static_cast<const float*>(nullptr));
  return x * ep::sigmoid(x) + ep::col_broadcast(static_cast<const float*>(nullptr)) + ep::col_broadcast<1>(static_cast<const float*>(nullptr));
}());
static_assert(ep::TreeInfo<Reused>::kLeaves == 6 && ep::TreeInfo<Reused>::kLoads == 3);
using WithOutputs = decltype(ep::col_sum(kNoFloats, ep::row_abs_max(kNoFloats, ep::aux_store(kNoFloats, ep::row_major(1), ep::acc()))));
static_assert(ep::TreeInfo<WithOutputs>::kOutputs == 3 && ep::TreeInfo<WithOutputs>::kLoads == 1);
// Types are nameable (the JIT's seam): the tree IS this type.
static_assert(cute_dsl::is_same_v<BiasGelu, ep::Map<ep::GeluErf, ep::Map<ep::Add, ep::Map<ep::Mul, ep::Scalar, ep::Acc>, ep::ColBroadcast<0, float>>>>);

// ---- leaves and compute nodes -----------------------------------------------------------------
TEST(EpilogueHost, LeavesScalarsAndBroadcasts) {
  const auto bias = random_floats(kN * kL, 1), scale = random_floats(kM * kL, 2);
  const float alpha_on_device = 0.75f;
  const auto c = random_floats(kM * kN * kL, 3);
  const long long ldc = kN, sc = kM * kN;
  const auto tree = 1.5f * ep::acc() + ep::scalar_ptr(&alpha_on_device) * ep::c_source(c.data(), ldc, sc) +
                    ep::col_broadcast(bias.data(), kN) - ep::row_broadcast(scale.data(), kM) / 2;
  expect_d(tree, [&](int b, int r, int col) {
    return 1.5 * acc_value(b, r, col) + 0.75 * c[b * sc + r * ldc + col] + bias[b * kN + col] - scale[b * kM + r] / 2.0;
  });
}

TEST(EpilogueHost, AuxLoadRowAndColumnMajor) {
  const long long ld_row = kN + 3, ld_col = kM + 5;  // padded
  const auto rm = random_floats(kM * ld_row * kL, 4), cm = random_floats(ld_col * kN * kL, 5);
  const auto tree = ep::aux_load<0>(rm.data(), ep::row_major(ld_row, kM * ld_row)) * ep::aux_load<1>(cm.data(), ep::col_major(ld_col, ld_col * kN));
  expect_d(tree, [&](int b, int r, int c) { return double(rm[b * kM * ld_row + r * ld_row + c]) * cm[b * ld_col * kN + c * ld_col + r]; });
}

TEST(EpilogueHost, Activations) {
  const auto x = ep::acc();
  auto a = [](int b, int r, int c) { return acc_value(b, r, c); };
  expect_d(ep::relu(x), [&](int b, int r, int c) { return std::max(a(b, r, c), 0.0); });
  expect_d(ep::leaky_relu(x, 0.2f), [&](int b, int r, int c) { return a(b, r, c) > 0 ? a(b, r, c) : double(0.2f) * a(b, r, c); });
  expect_d(ep::gelu(x), [&](int b, int r, int c) { return 0.5 * a(b, r, c) * std::erfc(-a(b, r, c) / std::sqrt(2.0)); });
  expect_d(ep::gelu_tanh(x), [&](int b, int r, int c) {
    const double v = a(b, r, c);
    return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
  });
  expect_d(ep::silu(x), [&](int b, int r, int c) { return a(b, r, c) / (1 + std::exp(-a(b, r, c))); });
  expect_d(ep::sigmoid(x), [&](int b, int r, int c) { return 1 / (1 + std::exp(-a(b, r, c))); });
  expect_d(ep::tanh(x), [&](int b, int r, int c) { return std::tanh(a(b, r, c)); });
  expect_d(ep::exp(x), [&](int b, int r, int c) { return std::exp(a(b, r, c)); });
  expect_d(-x, [&](int b, int r, int c) { return -a(b, r, c); });
}

TEST(EpilogueHost, BinaryTernaryAndUserFunctors) {
  const auto x = ep::acc();
  auto a = [](int b, int r, int c) { return acc_value(b, r, c); };
  expect_d(ep::max(x, 0.5f), [&](int b, int r, int c) { return std::max(a(b, r, c), 0.5); });
  expect_d(ep::min(x, -0.5f), [&](int b, int r, int c) { return std::min(a(b, r, c), -0.5); });
  expect_d(ep::fma(x, 2.f, 1.f), [&](int b, int r, int c) { return a(b, r, c) * 2 + 1; });
  expect_d(ep::clamp(x, -1.f, 1.25f), [&](int b, int r, int c) { return std::clamp(a(b, r, c), -1.0, 1.25); });
  // A user lambda (auto parameters: float on the device, double here).
  const auto cube_plus = [](auto v, auto w) { return v * v * v + w; };
  expect_d(ep::map(cube_plus, x, 3.f), [&](int b, int r, int c) { return std::pow(a(b, r, c), 3) + 3; }, 1e-12);
}

TEST(EpilogueHost, BackwardPieces) {
  const auto pre = random_floats(kM * kN * kL, 6);
  const auto p = ep::aux_load(pre.data(), ep::row_major(kN, kM * kN));
  auto a = [](int b, int r, int c) { return acc_value(b, r, c); };
  auto x = [&](int b, int r, int c) { return double(pre[b * kM * kN + r * kN + c]); };
  expect_d(ep::drelu(ep::acc(), p), [&](int b, int r, int c) { return x(b, r, c) > 0 ? a(b, r, c) : 0.0; });
  // Derivatives against central differences of the forward functors.
  auto numeric = [](auto f, double v) { const double h = 1e-5; return (f(v + h) - f(v - h)) / (2 * h); };
  expect_d(ep::dgelu(ep::acc(), p), [&](int b, int r, int c) { return a(b, r, c) * numeric(ep::GeluErf{}, x(b, r, c)); }, 1e-8);
  expect_d(ep::dgelu_tanh(ep::acc(), p), [&](int b, int r, int c) { return a(b, r, c) * numeric(ep::GeluTanh{}, x(b, r, c)); }, 1e-8);
}

// ---- outputs ----------------------------------------------------------------------------------
TEST(EpilogueHost, AuxStoresWriteEveryElementInTheirLayout) {
  const long long ld = kM + 2;  // column-major, padded
  std::vector<float> pre(ld * kN * kL, NAN);
  std::vector<double> pre_d(kM * kN * kL, NAN);
  const auto tree = ep::relu(ep::aux_store<0>(pre.data(), ep::col_major(ld, ld * kN), 2.f * ep::acc()) +
                             ep::aux_store<1>(pre_d.data(), ep::row_major(kN, kM * kN), ep::acc()));
  expect_d(tree, [&](int b, int r, int c) { return std::max(3 * acc_value(b, r, c), 0.0); });
  for (int b = 0; b < kL; ++b)
    for (int r = 0; r < kM; ++r)
      for (int c = 0; c < kN; ++c) {
        ASSERT_EQ(pre[b * ld * kN + c * ld + r], float(2 * acc_value(b, r, c)));
        ASSERT_EQ(pre_d[b * kM * kN + r * kN + c], acc_value(b, r, c));
      }
  for (int c = 0; c < kN; ++c) EXPECT_TRUE(std::isnan(pre[c * ld + kM])) << "padding row written";
}

// A max reduction starts from -inf, a constant (the same expression compiles under NVRTC:
// test/jit's epilogue constructs).
static_assert(ep::MaxOp::identity<float>() == -__builtin_huge_valf() && ep::MaxOp::identity<double>() == -__builtin_huge_val());

TEST(EpilogueHost, ReductionsFoldIntoTheirOutputs) {
  std::vector<float> rsum(kM * kL, 0.f), rmax(kM * kL, -INFINITY), ramax(kM * kL, 0.f);
  std::vector<float> csum(kN * kL, 1.f), cmax(kN * kL, -INFINITY), camax(kN * kL, 0.f);  // csum starts at 1: folded into
  std::vector<float> tsum(kL, 0.f), tmax(kL, -INFINITY), tamax(kL, 0.f);
  const auto x = ep::acc() - 1.f;  // mostly negative: max must handle negatives
  const auto tree = ep::row_sum(rsum.data(), ep::row_max(rmax.data(), ep::row_abs_max(ramax.data(),
                    ep::col_sum(csum.data(), ep::col_max(cmax.data(), ep::col_abs_max(camax.data(),
                    ep::tensor_sum(tsum.data(), ep::tensor_max(tmax.data(), ep::tensor_abs_max(tamax.data(), x, 1), 1), 1), kN), kN), kN), kM), kM), kM);
  static_assert(ep::TreeInfo<decltype(tree)>::kOutputs == 9);
  expect_d(tree, [&](int b, int r, int c) { return acc_value(b, r, c) - 1; });
  for (int b = 0; b < kL; ++b) {
    double ts = 0, tm = -INFINITY, ta = 0;
    for (int r = 0; r < kM; ++r) {
      double s = 0, m = -INFINITY, am = 0;
      for (int c = 0; c < kN; ++c) {
        const double v = acc_value(b, r, c) - 1;
        s += v, m = std::max(m, v), am = std::max(am, std::abs(v));
        ts += v, tm = std::max(tm, v), ta = std::max(ta, std::abs(v));
      }
      EXPECT_FLOAT_EQ(rsum[b * kM + r], float(s));
      EXPECT_EQ(rmax[b * kM + r], float(m));
      EXPECT_EQ(ramax[b * kM + r], float(am));
    }
    for (int c = 0; c < kN; ++c) {
      double s = 1, m = -INFINITY, am = 0;
      for (int r = 0; r < kM; ++r) {
        const double v = acc_value(b, r, c) - 1;
        s += v, m = std::max(m, v), am = std::max(am, std::abs(v));
      }
      EXPECT_NEAR(csum[b * kN + c], s, 1e-5);
      EXPECT_EQ(cmax[b * kN + c], float(m));
      EXPECT_EQ(camax[b * kN + c], float(am));
    }
    EXPECT_NEAR(tsum[b], ts, 1e-3);
    EXPECT_EQ(tmax[b], float(tm));
    EXPECT_EQ(tamax[b], float(ta));
  }
}

// ---- conversions ------------------------------------------------------------------------------
// bf16 by bits: round-to-nearest-even of the top 16 bits of a float.
float bf16_by_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  u &= 0xffff0000u;
  float r;
  std::memcpy(&r, &u, 4);
  return r;
}

TEST(EpilogueHost, RoundToBf16MatchesBitRounding) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<std::uint32_t> bits(0, 0x7f7effffu);  // finite, below bf16's top rounding edge
  for (int i = 0; i < 200000; ++i) {
    std::uint32_t u = bits(gen) | (i % 2 ? 0x80000000u : 0u);
    float x;
    std::memcpy(&x, &u, 4);
    ASSERT_EQ(ep::round_to_format<ep::kBf16>(x), bf16_by_bits(x)) << "x = " << x;
    ASSERT_EQ(ep::round_to_format<ep::kBf16>(double(x)), double(bf16_by_bits(x))) << "x = " << x;
  }
}

TEST(EpilogueHost, RoundToNarrowFormatsTiesAndSaturation) {
  // Ties to even, saturation (also of infinities), subnormals, NaN.
  static_assert(ep::kFp16.max_significand == 2047);
  EXPECT_EQ(ep::round_to_format<ep::kBf16>(1.f + 0x1p-8f), 1.f);
  EXPECT_EQ(ep::round_to_format<ep::kBf16>(1.f + 3 * 0x1p-8f), 1.f + 0x1p-6f);
  EXPECT_EQ(ep::round_to_format<ep::kFp16>(65519.f), 65504.f);
  EXPECT_EQ(ep::round_to_format<ep::kFp16>(1e9f), 65504.f);
  EXPECT_EQ(ep::round_to_format<ep::kFp16>(-INFINITY), -65504.f);
  EXPECT_EQ(ep::round_to_format<ep::kFp16>(0x1p-25f), 0.f);           // half the smallest subnormal: tie to 0
  EXPECT_EQ(ep::round_to_format<ep::kFp16>(0x1.8p-24f), 0x1p-23f);    // 1.5 quanta: tie to even (2)
  EXPECT_EQ(ep::round_to_format<ep::kFp8E4M3>(1000.f), 448.f);
  EXPECT_EQ(ep::round_to_format<ep::kFp8E4M3>(1.0625f), 1.f);          // tie between 1 and 1.125
  EXPECT_EQ(ep::round_to_format<ep::kFp8E4M3>(0x1p-11f), 0.f);  // below half the smallest subnormal (2^-9)
  EXPECT_EQ(ep::round_to_format<ep::kFp8E4M3>(0x1.8p-9f), 0x1p-8f);
  EXPECT_EQ(ep::round_to_format<ep::kFp8E5M2>(60000.f), 57344.f);
  EXPECT_EQ(ep::round_to_format<ep::kFp8E5M2>(1.125f), 1.f);           // tie between 1 and 1.25
  EXPECT_TRUE(std::isnan(ep::round_to_format<ep::kFp8E4M3>(NAN)));
  // As tree nodes: later nodes see the rounded value.
  expect_d(ep::to_fp8_e4m3(ep::acc()) * 2.f, [](int b, int r, int c) { return 2 * ep::round_to_format<ep::kFp8E4M3>(acc_value(b, r, c)); });
  expect_d(ep::to_bf16(ep::acc()) + ep::to_fp16(ep::acc()) + ep::to_fp8_e5m2(ep::acc()), [](int b, int r, int c) {
    const double v = acc_value(b, r, c);
    return ep::round_to_format<ep::kBf16>(v) + ep::round_to_format<ep::kFp16>(v) + ep::round_to_format<ep::kFp8E5M2>(v);
  });
}

}  // namespace
