// The error bound that justifies the fast activation path for 16-bit types
// (elementwise_ops.hpp: Gelu and Silu use __expf/__fdividef for f16 and bf16): every finite f16
// and bf16 value with |x| <= kRange goes through the default kernel, and each output is compared
// with the activation evaluated in double precision (exact constants). Pass mark: within 1 ulp of
// T at the reference value (the output rounding alone is 1/2 ulp; the fast path's own relative
// error, ~1e-5 at |x| = 8, is the small slack on top). The *Accurate functors run too, and their
// largest error is printed next to the default's, for the record: GeluAccurate's f32 1 + tanhf(u)
// cancels in the negative tail and is exactly 0 once tanhf(u) rounds to -1 (x < ~-5.2), so it
// returns -0 where bf16 holds the true value: a 100% relative error, just under 2^8 ulp with
// bf16's 8 significant bits (run 9: 255.694 ulp, at x = -6.1875; f16 rounds those outputs to 0).
// Why |x| <= 8: it covers the activations' whole interesting range and the tails out to where
// GELU is ~1e-20 (bf16 keeps f32's exponent range, so tails are compared relatively, not flushed).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>

#include "cute_dsl/kernels/elementwise.hpp"
#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "kernel_test_support.cuh"

namespace {

namespace ck = cute_dsl::kernels;
using namespace cute_dsl_kernels_test;

constexpr double kRange = 8.0;

// GELU's tanh form written as x sigmoid(2 u) (0.5 (1 + tanh(u)) = 1 / (1 + e^-2u) exactly). Why
// not 0.5 x (1 + tanh(u)) in double: for u < ~-19 (x < ~-7.2) tanh(u) rounds to -1 and the
// reference became 0 where the true GELU is ~1e-16..1e-21, which bf16 represents: the test then
// blamed the (correct) fast path for 1.7e24 ulp (H200 run 9). e^-2u has no such cancellation.
double gelu_reference(double x) {
  const double u = std::sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x);
  return x / (1.0 + std::exp(-2.0 * u));
}
double silu_reference(double x) { return x / (1.0 + std::exp(-x)); }

// The spacing of T's values at |r| (subnormal spacing below the smallest normal).
template <class T> struct Format;
template <> struct Format<__half> { static constexpr int kMantissa = 10, kMinExp = -14; };
template <> struct Format<__nv_bfloat16> { static constexpr int kMantissa = 7, kMinExp = -126; };
template <class T>
double ulp_at(double r) {
  int e = 0;
  std::frexp(r, &e);  // |r| = m 2^e, m in [0.5, 1): the binade's exponent is e - 1
  const int binade = r == 0.0 ? Format<T>::kMinExp : std::max(e - 1, Format<T>::kMinExp);
  return std::ldexp(1.0, binade - Format<T>::kMantissa);
}

// Every finite 16-bit pattern with |x| <= kRange.
template <class T>
std::vector<T> all_values_in_range() {
  std::vector<T> v;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const auto b = static_cast<std::uint16_t>(bits);
    T x;
    std::memcpy(&x, &b, sizeof x);
    const double d = to_double(x);
    if (std::isfinite(d) && std::fabs(d) <= kRange) v.push_back(x);
  }
  return v;
}

struct WorstError {
  double ulps = 0.0;
  double at = 0.0;  // the input where it occurs
};

// Runs the default unary kernel with Op over `in`; returns the largest error in ulps of T.
template <class T, class Op>
WorstError max_ulp_error(const std::vector<T>& in, double (*reference)(double)) {
  const auto n = static_cast<long long>(in.size());
  GuardedBuffer<T> din(n), dout(n);
  EXPECT_TRUE(din.ok() && dout.ok());
  EXPECT_EQ(din.upload(in), cudaSuccess);
  EXPECT_EQ(dout.poison(), cudaSuccess);
  constexpr int V = ck::kElementwiseVector<T>;
  const auto grid = static_cast<unsigned>(
      ck::elementwise_onetrip_grid(n, {V, ck::kElementwiseThreads, ck::kElementwiseUnroll}));
  ck::elementwise_unary_kernel<T, Op><<<grid, ck::kElementwiseThreads>>>(dout.get(), din.get(), n, Op{});
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<T> out;
  EXPECT_EQ(dout.download(out), cudaSuccess);
  WorstError worst;
  for (long long i = 0; i < n; ++i) {
    const double x = to_double(in[i]), got = to_double(out[i]), want = reference(x);
    const double err = std::isnan(got) ? INFINITY : std::fabs(got - want) / ulp_at<T>(want);
    if (err > worst.ulps) worst = {err, x};
  }
  return worst;
}

template <class T>
class ActivationBoundGpu : public testing::Test {};
using HalfTypes = testing::Types<__half, __nv_bfloat16>;
TYPED_TEST_SUITE(ActivationBoundGpu, HalfTypes, ElementTypeNames);

template <class T, class Fast, class Accurate>
void check_bound(const char* name, double (*reference)(double)) {
  const auto in = all_values_in_range<T>();
  const WorstError fast = max_ulp_error<T, Fast>(in, reference);
  const WorstError accurate = max_ulp_error<T, Accurate>(in, reference);
  std::cout << name << ": " << in.size() << " inputs, |x| <= " << kRange << ", max error vs f64: default "
            << fast.ulps << " ulp (x = " << fast.at << "), accurate " << accurate.ulps << " ulp (x = "
            << accurate.at << ")\n";
  EXPECT_LE(fast.ulps, 1.0) << name << ": the default (fast) path is more than 1 ulp off at x = " << fast.at;
}

// No GPU needed: the references themselves must not cancel or underflow over the tested range.
// Both activations are x times a positive factor, so each must be nonzero with x's sign for every
// nonzero input (a reference that returns 0 makes any correct tiny output look ~1e24 ulp off).
TYPED_TEST(ActivationBoundGpu, ReferencesKeepTheSignOfEveryNonzeroInput) {
  for (const TypeParam v : all_values_in_range<TypeParam>()) {
    const double x = to_double(v);
    if (x == 0.0) continue;
    EXPECT_GT(gelu_reference(x) * x, 0.0) << "gelu reference at x = " << x;
    EXPECT_GT(silu_reference(x) * x, 0.0) << "silu reference at x = " << x;
  }
}

TYPED_TEST(ActivationBoundGpu, GeluDefaultWithinOneUlp) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_bound<TypeParam, ck::Gelu, ck::GeluAccurate>("gelu", gelu_reference);
}
TYPED_TEST(ActivationBoundGpu, SiluDefaultWithinOneUlp) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_bound<TypeParam, ck::Silu, ck::SiluAccurate>("silu", silu_reference);
}

}  // namespace
