// Warp shuffles (warp/shuffle.hpp) and block reduction (warp/block_reduce.hpp): every width, every
// lane, every source lane; integer sums and max/min are exact, so results compare with ==.
#include <gpu_test.cuh>

#include <cute_dsl/tensor/tensor.hpp>
#include <cute_dsl/warp/block_reduce.hpp>
#include <cute_dsl/warp/shuffle.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace {
using namespace cute_dsl;

constexpr int kWarps = 8;

// out[3 * i + {0,1,2}] = sum, max, min over lane i's group of Width lanes.
template <int Width, class T>
__global__ void all_reduce_kernel(const T* in, T* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = in[i];
  out[3 * i + 0] = warp::all_reduce_sum<Width>(v);
  out[3 * i + 1] = warp::all_reduce_max<Width>(v);
  out[3 * i + 2] = warp::all_reduce_min<Width>(v);
}

// The same with the group width given at run time.
template <class T>
__global__ void all_reduce_runtime_width_kernel(const T* in, T* out, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = in[i];
  out[3 * i + 0] = warp::all_reduce(v, width, warp::SumOp{});
  out[3 * i + 1] = warp::all_reduce(v, width, warp::MaxOp{});
  out[3 * i + 2] = warp::all_reduce(v, width, warp::MinOp{});
}

// out[i * Width + s] = the value of source lane s of lane i's group.
template <int Width>
__global__ void broadcast_kernel(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < Width; ++s) out[i * Width + s] = warp::broadcast<Width>(in[i], s);
}

// Each lane holds 4 values in a register tensor; out[i] = the warp's sum over all 128.
__global__ void reduce_tensor_kernel(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto regs = make_tensor<int>(make_shape(_4{}));
  for (int k = 0; k < 4; ++k) regs(k) = in[4 * i + k];
  out[i] = warp::reduce_tensor(regs, warp::SumOp{});
}

template <class T, class Op>
T group_reduce(const std::vector<T>& v, int first, int width, Op op) {
  T acc = v[first];
  for (int k = 1; k < width; ++k) acc = op(acc, v[first + k]);
  return acc;
}

// RuntimeWidth: through warp::all_reduce(v, width, op) instead of all_reduce<Width>.
template <int Width, bool RuntimeWidth = false>
void check_all_reduce_int() {
  auto seed = cute_dsl_test::test_seed();
  const int n = kWarps * 32;
  std::vector<int> in(n);
  std::mt19937 gen(seed);
  for (auto& x : in) x = static_cast<int>(gen() % 20001) - 10000;
  cute_dsl_test::DeviceBuffer<int> d_in(n), d_out(3 * n);
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  if constexpr (RuntimeWidth) all_reduce_runtime_width_kernel<int><<<2, n / 2>>>(d_in.get(), d_out.get(), Width);
  else all_reduce_kernel<Width, int><<<2, n / 2>>>(d_in.get(), d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int i = 0; i < n; ++i) {
    const int first = i - i % Width;
    ASSERT_EQ(out[3 * i + 0], group_reduce(in, first, Width, warp::SumOp{})) << "Width " << Width << " lane " << i << " seed " << seed;
    ASSERT_EQ(out[3 * i + 1], group_reduce(in, first, Width, warp::MaxOp{})) << "Width " << Width << " lane " << i;
    ASSERT_EQ(out[3 * i + 2], group_reduce(in, first, Width, warp::MinOp{})) << "Width " << Width << " lane " << i;
  }
}

template <int Width>
void check_broadcast() {
  auto seed = cute_dsl_test::test_seed();
  const int n = kWarps * 32;
  std::vector<int> in(n);
  std::mt19937 gen(seed);
  for (auto& x : in) x = static_cast<int>(gen());
  cute_dsl_test::DeviceBuffer<int> d_in(n), d_out(n * Width);
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  broadcast_kernel<Width><<<1, n>>>(d_in.get(), d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int i = 0; i < n; ++i)
    for (int s = 0; s < Width; ++s)
      ASSERT_EQ(out[i * Width + s], in[i - i % Width + s]) << "Width " << Width << " lane " << i << " source " << s;
}

TEST(Warp, AllReduceEveryWidth) {
  CUTE_DSL_REQUIRE_GPU(80);
  check_all_reduce_int<1>();
  check_all_reduce_int<2>();
  check_all_reduce_int<4>();
  check_all_reduce_int<8>();
  check_all_reduce_int<16>();
  check_all_reduce_int<32>();
}

// The run-time width gives, in every lane, what the compile-time width gives -- bit for bit, float
// sums included (the same butterfly order); the integer results are exact (check_all_reduce_int).
template <int Width>
void check_runtime_width_float_matches_static() {
  auto seed = cute_dsl_test::test_seed();
  const int n = kWarps * 32;
  auto in = cute_dsl_test::random_vector<float>(n, seed);
  cute_dsl_test::DeviceBuffer<float> d_in(n), d_static(3 * n), d_runtime(3 * n);
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  all_reduce_kernel<Width, float><<<2, n / 2>>>(d_in.get(), d_static.get());
  CUTE_DSL_TEST_LAUNCHED();
  all_reduce_runtime_width_kernel<float><<<2, n / 2>>>(d_in.get(), d_runtime.get(), Width);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> at_static, at_runtime;
  CUTE_DSL_TEST_CUDA(d_static.download(at_static));
  CUTE_DSL_TEST_CUDA(d_runtime.download(at_runtime));
  for (int i = 0; i < 3 * n; ++i)
    ASSERT_EQ(std::bit_cast<std::uint32_t>(at_runtime[i]), std::bit_cast<std::uint32_t>(at_static[i]))
        << "width " << Width << " lane " << i / 3 << " op " << i % 3 << " seed " << seed;
}

TEST(Warp, AllReduceRuntimeWidthMatchesTheStaticOne) {
  CUTE_DSL_REQUIRE_GPU(80);
  check_all_reduce_int<1, true>();
  check_all_reduce_int<2, true>();
  check_all_reduce_int<4, true>();
  check_all_reduce_int<8, true>();
  check_all_reduce_int<16, true>();
  check_all_reduce_int<32, true>();
  check_runtime_width_float_matches_static<1>();
  check_runtime_width_float_matches_static<2>();
  check_runtime_width_float_matches_static<4>();
  check_runtime_width_float_matches_static<8>();
  check_runtime_width_float_matches_static<16>();
  check_runtime_width_float_matches_static<32>();
}

TEST(Warp, AllReduceFloatMaxMinExactAndSumClose) {
  CUTE_DSL_REQUIRE_GPU(80);
  auto seed = cute_dsl_test::test_seed();
  const int n = kWarps * 32;
  auto in = cute_dsl_test::random_vector<float>(n, seed);
  cute_dsl_test::DeviceBuffer<float> d_in(n), d_out(3 * n);
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  all_reduce_kernel<32, float><<<1, n>>>(d_in.get(), d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int i = 0; i < n; ++i) {
    const int first = i - i % 32;
    EXPECT_NEAR(out[3 * i + 0], group_reduce(in, first, 32, warp::SumOp{}), 1e-4f) << "lane " << i;
    EXPECT_EQ(out[3 * i + 1], group_reduce(in, first, 32, warp::MaxOp{})) << "lane " << i;
    EXPECT_EQ(out[3 * i + 2], group_reduce(in, first, 32, warp::MinOp{})) << "lane " << i;
  }
}

TEST(Warp, BroadcastEveryWidthAndSourceLane) {
  CUTE_DSL_REQUIRE_GPU(80);
  check_broadcast<1>();
  check_broadcast<2>();
  check_broadcast<4>();
  check_broadcast<8>();
  check_broadcast<16>();
  check_broadcast<32>();
}

TEST(Warp, ReduceRegisterTensor) {
  CUTE_DSL_REQUIRE_GPU(80);
  auto seed = cute_dsl_test::test_seed();
  const int n = kWarps * 32;
  std::vector<int> in(4 * n);
  std::mt19937 gen(seed);
  for (auto& x : in) x = static_cast<int>(gen() % 2001) - 1000;
  cute_dsl_test::DeviceBuffer<int> d_in(in.size()), d_out(n);
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  reduce_tensor_kernel<<<kWarps, 32>>>(d_in.get(), d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int i = 0; i < n; ++i) {
    const int w = i / 32;
    int expect = 0;
    for (int k = 0; k < 128; ++k) expect += in[w * 128 + k];
    ASSERT_EQ(out[i], expect) << "lane " << i << " seed " << seed;
  }
}

// out[b * blockDim + t] = sum / max over block b, computed twice back to back (scratch reuse).
__global__ void block_reduce_kernel(const int* in, int* out_sum, int* out_max) {
  __shared__ int scratch[warp::block_reduce_scratch_size(1024)];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out_sum[i] = warp::block_all_reduce(v, warp::SumOp{}, scratch);
  out_max[i] = warp::block_all_reduce(v, warp::MaxOp{}, scratch);
}

TEST(Block, AllReduceSumAndMaxForEveryBlockSize) {
  CUTE_DSL_REQUIRE_GPU(80);
  auto seed = cute_dsl_test::test_seed();
  for (int threads = 32; threads <= 1024; threads += 32 * ((threads < 256) ? 1 : 7)) {
    const int blocks = 5, n = blocks * threads;
    std::vector<int> in(n);
    std::mt19937 gen(seed + threads);
    for (auto& x : in) x = static_cast<int>(gen() % 200001) - 100000;
    cute_dsl_test::DeviceBuffer<int> d_in(n), d_sum(n), d_max(n);
    CUTE_DSL_TEST_CUDA(d_in.upload(in));
    CUTE_DSL_TEST_CUDA(d_sum.poison());
    CUTE_DSL_TEST_CUDA(d_max.poison());
    block_reduce_kernel<<<blocks, threads>>>(d_in.get(), d_sum.get(), d_max.get());
    CUTE_DSL_TEST_LAUNCHED();
    std::vector<int> sum, mx;
    CUTE_DSL_TEST_CUDA(d_sum.download(sum));
    CUTE_DSL_TEST_CUDA(d_max.download(mx));
    for (int b = 0; b < blocks; ++b) {
      const int s = group_reduce(in, b * threads, threads, warp::SumOp{});
      const int m = group_reduce(in, b * threads, threads, warp::MaxOp{});
      for (int t = 0; t < threads; ++t) {
        ASSERT_EQ(sum[b * threads + t], s) << "threads " << threads << " block " << b << " t " << t << " seed " << seed;
        ASSERT_EQ(mx[b * threads + t], m) << "threads " << threads << " block " << b << " t " << t;
      }
    }
  }
}

}  // namespace
