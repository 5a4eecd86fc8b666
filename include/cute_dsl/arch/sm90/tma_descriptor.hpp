// Host side of TMA: a CUtensorMap (the 128-byte descriptor SM90_TMA_* take) for a tiled copy
// between a global tensor and a shared-memory box, validated with messages that name the rule.
//
// cuTensorMapEncodeTiled is a Driver API function; this header never links libcuda (CI machines
// have no driver). The caller either passes the function pointer (the JIT has a dlopen'd driver)
// or, with cudart, lets encode_tiled_from_cudart() fetch it (cudaGetDriverEntryPointByVersion).
//
//   auto enc = cute_dsl::tma::encode_tiled_from_cudart();           // or the JIT's pointer
//   CUtensorMap map = cute_dsl::tma::make_tma_descriptor<float>(enc, dptr,
//       {cols, rows}, {row_pitch_bytes}, smem_layout /* (32,64):(1,32), maybe swizzled */);
//
// Dimension 0 is the contiguous one everywhere (as in the PTX coordinates {c0, c1, ...}): global
// extents `shape[i]`, byte strides of dimensions 1.. `strides_bytes[i-1]`, box extents from the
// shared layout's modes, which must be compact column-major (mode 0 stride 1): that is how TMA
// writes a box. A Swizzle<B,M,S> on the shared layout (in elements) selects the swizzle mode.
//
// Host-only, and only where <cuda.h> is available: elsewhere this header is empty.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && __has_include(<cuda.h>)
#define CUTE_DSL_HAVE_TMA_DESCRIPTOR 1
#include <cuda.h>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/layout/composed_layout.hpp"

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#endif

namespace cute_dsl::tma {

// The signature of cuTensorMapEncodeTiled.
using EncodeTiledFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                   const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// A TMA argument broke one of the rules of cuTensorMapEncodeTiled (or the driver refused it).
struct TmaDescriptorError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

enum class SwizzleMode { none = 0, bytes32 = 32, bytes64 = 64, bytes128 = 128 };

// Everything cuTensorMapEncodeTiled needs, dimension 0 contiguous. Interleave is always NONE.
struct TiledDescriptorSpec {
  CUtensorMapDataType data_type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  int element_bytes = 4;
  void* global_address = nullptr;
  std::vector<std::uint64_t> shape;          // elements, per dimension
  std::vector<std::uint64_t> strides_bytes;  // dimensions 1..rank-1 (dimension 0 is dense)
  std::vector<std::uint32_t> box;            // elements, per dimension
  SwizzleMode swizzle = SwizzleMode::none;
  CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  CUtensorMapFloatOOBfill oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;  // NONE fills zeros
};

namespace detail {
[[noreturn]] inline void fail(const std::string& rule) { throw TmaDescriptorError("make_tma_descriptor: " + rule); }
}  // namespace detail

// Checks the rules of cuTensorMapEncodeTiled (CUDA Driver API reference, tiled mode, no
// interleave) and throws TmaDescriptorError naming the first one broken.
inline void validate(const TiledDescriptorSpec& s) {
  using detail::fail;
  const std::size_t rank = s.shape.size();
  if (rank < 1 || rank > 5) fail("the tensor rank must be 1 to 5, got " + std::to_string(rank));
  if (s.box.size() != rank) fail("the box must have one extent per dimension (" + std::to_string(rank) + ")");
  if (s.strides_bytes.size() != rank - 1)
    fail("give the byte strides of dimensions 1.." + std::to_string(rank - 1) + " (" + std::to_string(rank - 1) +
         " values); dimension 0 is contiguous");
  if (reinterpret_cast<std::uintptr_t>(s.global_address) % 16 != 0) fail("the global address must be 16-byte aligned");
  for (std::size_t i = 0; i < rank; ++i) {
    if (s.shape[i] == 0 || s.shape[i] > (std::uint64_t(1) << 32))
      fail("global extent of dimension " + std::to_string(i) + " must be in [1, 2^32], got " + std::to_string(s.shape[i]));
    if (s.box[i] == 0 || s.box[i] > 256)
      fail("box extent of dimension " + std::to_string(i) + " must be in [1, 256], got " + std::to_string(s.box[i]));
  }
  for (std::size_t i = 0; i + 1 < rank; ++i)
    if (s.strides_bytes[i] % 16 != 0 || s.strides_bytes[i] >= (std::uint64_t(1) << 40))
      fail("the byte stride of dimension " + std::to_string(i + 1) + " must be a multiple of 16 below 2^40, got " +
           std::to_string(s.strides_bytes[i]));
  const std::uint64_t inner_bytes = std::uint64_t(s.box[0]) * std::uint64_t(s.element_bytes);
  if (inner_bytes % 16 != 0)
    fail("the box's inner extent times the element size must be a multiple of 16 bytes, got " +
         std::to_string(inner_bytes));
  if (s.swizzle != SwizzleMode::none && inner_bytes > std::uint64_t(s.swizzle))
    fail("with a " + std::to_string(int(s.swizzle)) + "-byte swizzle the box's inner extent must span at most " +
         std::to_string(int(s.swizzle)) + " bytes, got " + std::to_string(inner_bytes));
}

inline CUtensorMapSwizzle to_cu(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::bytes32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case SwizzleMode::bytes64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case SwizzleMode::bytes128: return CU_TENSOR_MAP_SWIZZLE_128B;
    default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

// Validates, then encodes with `encode` (cuTensorMapEncodeTiled from any source).
inline CUtensorMap make_tma_descriptor(EncodeTiledFn encode, const TiledDescriptorSpec& s) {
  if (encode == nullptr) detail::fail("no cuTensorMapEncodeTiled function was given");
  validate(s);
  const std::size_t rank = s.shape.size();
  std::vector<cuuint64_t> dims(s.shape.begin(), s.shape.end()), strides(s.strides_bytes.begin(), s.strides_bytes.end());
  std::vector<cuuint32_t> box(s.box.begin(), s.box.end()), elem_strides(rank, 1);
  CUtensorMap map{};
  CUresult r = encode(&map, s.data_type, cuuint32_t(rank), s.global_address, dims.data(), strides.data(), box.data(),
                      elem_strides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE, to_cu(s.swizzle), s.l2_promotion, s.oob_fill);
  if (r != CUDA_SUCCESS) detail::fail("cuTensorMapEncodeTiled refused the arguments (CUresult " + std::to_string(int(r)) + ")");
  return map;
}

// ---- from a shared-memory layout ---------------------------------------------------------------

// The TMA data type of an element type: float/double/integers by name, anything else by size
// (TMA moves bytes; the type only matters for NaN out-of-bounds fill).
template <class T>
constexpr CUtensorMapDataType data_type_of() {
  if constexpr (is_same_v<T, float>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  else if constexpr (is_same_v<T, double>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  else if constexpr (is_same_v<T, int>) return CU_TENSOR_MAP_DATA_TYPE_INT32;
  else if constexpr (is_same_v<T, long long> || is_same_v<T, long>) return CU_TENSOR_MAP_DATA_TYPE_INT64;
  else if constexpr (sizeof(T) == 1) return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  else if constexpr (sizeof(T) == 2) return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  else if constexpr (sizeof(T) == 4) return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  else {
    static_assert(sizeof(T) == 8, "make_tma_descriptor: TMA elements are 1, 2, 4 or 8 bytes");
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  }
}

// The swizzle mode of a Swizzle<B,M,S> on element offsets of T: in bytes it must be
// Swizzle<B,4,3> (16-byte units XORed by the row index in 128-byte rows), B = 1, 2, 3 for 32/64/128.
template <class T, int B, int M, int S>
constexpr SwizzleMode swizzle_mode_of(Swizzle<B, M, S>) {
  constexpr int elem_bits_log2 = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
  static_assert(S == 3 && M + elem_bits_log2 == 4 && B >= 1 && B <= 3,
                "make_tma_descriptor: the shared layout's swizzle must be Swizzle<B,M,3> with M = log2(16/sizeof(T)) "
                "and B = 1, 2 or 3 (TMA's 32, 64, 128-byte swizzles)");
  return SwizzleMode(16 << B);
}

namespace detail {
template <class Shape, class Stride, unsigned long... Is>
std::vector<std::uint32_t> compact_box(Layout<Shape, Stride> const& l, index_sequence<Is...>) {
  std::vector<long long> extents{static_cast<long long>(get<Is>(l.shape()))...};
  std::vector<long long> strides{static_cast<long long>(get<Is>(l.stride()))...};
  long long expect = 1;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    if (extents[i] > 1 && strides[i] != expect)
      fail("the shared layout must be compact column-major (mode " + std::to_string(i) + " stride " +
           std::to_string(expect) + ", got " + std::to_string(strides[i]) + "): TMA writes a box densely, dimension 0 fastest");
    expect *= extents[i];
  }
  return std::vector<std::uint32_t>(extents.begin(), extents.end());
}
template <class Shape, class Stride>
std::vector<std::uint32_t> box_of(Layout<Shape, Stride> const& l) {
  if constexpr (is_tuple_v<Shape>) {
    static_assert(depth_v<Shape> <= 1, "make_tma_descriptor: the shared layout's modes must be single integers (flatten it)");
    return compact_box(l, tuple_seq<Shape>{});
  } else {
    return compact_box(make_layout(make_shape(l.shape()), make_stride(l.stride())), index_sequence<0>{});
  }
}
}  // namespace detail

// A descriptor for copies between the global tensor (`gmem`, extents `shape`, byte strides of
// dimensions 1.. `strides_bytes`) and boxes laid out in shared memory as `smem_layout` (element
// offsets; a Layout, or a ComposedLayout of a Swizzle and a Layout).
template <class T, class SmemLayout>
CUtensorMap make_tma_descriptor(EncodeTiledFn encode, T const* gmem, std::vector<std::uint64_t> shape,
                                std::vector<std::uint64_t> strides_bytes, SmemLayout const& smem_layout,
                                CUtensorMapFloatOOBfill oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
                                CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_128B) {
  TiledDescriptorSpec s;
  s.data_type = data_type_of<T>();
  s.element_bytes = int(sizeof(T));
  s.global_address = const_cast<T*>(gmem);
  s.shape = std::move(shape);
  s.strides_bytes = std::move(strides_bytes);
  if constexpr (requires { smem_layout.layout_b(); }) {
    static_assert(is_swizzle_v<remove_cvref_t<decltype(smem_layout.layout_a())>>,
                  "make_tma_descriptor: a composed shared layout must be Swizzle o Layout");
    s.box = detail::box_of(smem_layout.layout_b());
    s.swizzle = swizzle_mode_of<T>(smem_layout.layout_a());
  } else {
    s.box = detail::box_of(smem_layout);
  }
  s.oob_fill = oob_fill;
  s.l2_promotion = l2;
  return make_tma_descriptor(encode, s);
}

#if defined(CUDART_VERSION) && CUDART_VERSION >= 12050
// cuTensorMapEncodeTiled through cudart (needs linking cudart, not libcuda; loads the driver).
// Throws TmaDescriptorError when there is no driver or it lacks the function.
inline EncodeTiledFn encode_tiled_from_cudart() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &status);
  if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || fn == nullptr)
    throw TmaDescriptorError(std::string("encode_tiled_from_cudart: cuTensorMapEncodeTiled is not available (") +
                             cudaGetErrorName(err) + ")");
  return reinterpret_cast<EncodeTiledFn>(fn);
}
#endif

}  // namespace cute_dsl::tma

#endif  // host-only, <cuda.h>
