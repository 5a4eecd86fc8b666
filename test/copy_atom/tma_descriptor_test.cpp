// The TMA descriptor builder without a driver: a stand-in for cuTensorMapEncodeTiled records
// what it is given, so the tests check the arguments (extents, byte strides, box from the shared
// layout, swizzle from its Swizzle, OOB fill) and every validation rule's message.
#include <gtest/gtest.h>

#include "cute_dsl/arch/sm90/tma_descriptor.hpp"

#if defined(CUTE_DSL_HAVE_TMA_DESCRIPTOR)
#include <string>
#include <vector>

#include "cute_dsl/kernels/gemm_operand_map.hpp"
#include "cute_dsl/layout/composed_layout.hpp"

using namespace cute_dsl;

namespace {
struct Recorded {
  CUtensorMapDataType type{};
  cuuint32_t rank = 0;
  void* address = nullptr;
  std::vector<cuuint64_t> dims, strides;
  std::vector<cuuint32_t> box, elem_strides;
  CUtensorMapInterleave interleave{};
  CUtensorMapSwizzle swizzle{};
  CUtensorMapL2promotion l2{};
  CUtensorMapFloatOOBfill oob{};
};
Recorded g_rec;

CUresult fake_encode(CUtensorMap*, CUtensorMapDataType type, cuuint32_t rank, void* address, const cuuint64_t* dims,
                     const cuuint64_t* strides, const cuuint32_t* box, const cuuint32_t* es, CUtensorMapInterleave il,
                     CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  g_rec = Recorded{type, rank, address, {dims, dims + rank}, {strides, strides + rank - 1}, {box, box + rank}, {es, es + rank},
                   il, sw, l2, oob};
  return CUDA_SUCCESS;
}
CUresult refusing_encode(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                         const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                         CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  return CUDA_ERROR_INVALID_VALUE;
}

alignas(128) float g_matrix[64 * 100];

std::string error_of(const tma::TiledDescriptorSpec& s) {
  try {
    tma::make_tma_descriptor(fake_encode, s);
  } catch (const tma::TmaDescriptorError& e) {
    return e.what();
  }
  return "";
}
tma::TiledDescriptorSpec valid_spec() {
  tma::TiledDescriptorSpec s;
  s.global_address = g_matrix;
  s.shape = {64, 100};
  s.strides_bytes = {256};
  s.box = {32, 16};
  return s;
}
}  // namespace

TEST(TmaDescriptor, BoxFromPlainSharedLayout) {
  auto smem = make_layout(make_shape(_32{}, _16{}));  // (32,16):(1,32)
  tma::make_tma_descriptor(fake_encode, g_matrix, {64, 100}, {64 * 4}, smem);
  EXPECT_EQ(g_rec.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(g_rec.rank, 2u);
  EXPECT_EQ(g_rec.address, static_cast<void*>(g_matrix));
  EXPECT_EQ(g_rec.dims, (std::vector<cuuint64_t>{64, 100}));
  EXPECT_EQ(g_rec.strides, (std::vector<cuuint64_t>{256}));
  EXPECT_EQ(g_rec.box, (std::vector<cuuint32_t>{32, 16}));
  EXPECT_EQ(g_rec.elem_strides, (std::vector<cuuint32_t>{1, 1}));
  EXPECT_EQ(g_rec.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(g_rec.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
  EXPECT_EQ(g_rec.oob, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Swizzle<B,M,3> on element offsets: M = log2(16 bytes / sizeof(T)); B = 1, 2, 3 -> 32, 64, 128 B.
TEST(TmaDescriptor, SwizzleFromSharedLayout) {
  tma::make_tma_descriptor(fake_encode, g_matrix, {64, 100}, {256}, composition(Swizzle<1, 2, 3>{}, make_layout(make_shape(_8{}, _8{}))));
  EXPECT_EQ(g_rec.swizzle, CU_TENSOR_MAP_SWIZZLE_32B);
  tma::make_tma_descriptor(fake_encode, g_matrix, {64, 100}, {256}, composition(Swizzle<2, 2, 3>{}, make_layout(make_shape(_16{}, _8{}))));
  EXPECT_EQ(g_rec.swizzle, CU_TENSOR_MAP_SWIZZLE_64B);
  tma::make_tma_descriptor(fake_encode, g_matrix, {64, 100}, {256}, composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, _8{}))));
  EXPECT_EQ(g_rec.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(g_rec.box, (std::vector<cuuint32_t>{32, 8}));
  static_assert(tma::swizzle_mode_of<unsigned short>(Swizzle<3, 3, 3>{}) == tma::SwizzleMode::bytes128);
  static_assert(tma::swizzle_mode_of<double>(Swizzle<2, 1, 3>{}) == tma::SwizzleMode::bytes64);
}

TEST(TmaDescriptor, ValidationMessages) {
  EXPECT_EQ(error_of(valid_spec()), "");
  auto s = valid_spec();
  s.global_address = reinterpret_cast<char*>(g_matrix) + 4;
  EXPECT_NE(error_of(s).find("16-byte aligned"), std::string::npos) << error_of(s);
  s = valid_spec();
  s.box = {32, 257};
  EXPECT_NE(error_of(s).find("box extent of dimension 1 must be in [1, 256], got 257"), std::string::npos) << error_of(s);
  s = valid_spec();
  s.strides_bytes = {200};
  EXPECT_NE(error_of(s).find("byte stride of dimension 1 must be a multiple of 16"), std::string::npos) << error_of(s);
  s = valid_spec();
  s.box = {2, 16};  // 8 bytes
  EXPECT_NE(error_of(s).find("multiple of 16 bytes, got 8"), std::string::npos) << error_of(s);
  s = valid_spec();
  s.swizzle = tma::SwizzleMode::bytes64;  // 32 floats = 128 bytes > 64
  EXPECT_NE(error_of(s).find("64-byte swizzle the box's inner extent must span at most 64 bytes, got 128"), std::string::npos)
      << error_of(s);
  s = valid_spec();
  s.shape = {1, 2, 3, 4, 5, 6};
  EXPECT_NE(error_of(s).find("rank must be 1 to 5"), std::string::npos) << error_of(s);
  s = valid_spec();
  s.strides_bytes = {};
  EXPECT_NE(error_of(s).find("byte strides of dimensions 1..1"), std::string::npos) << error_of(s);
  EXPECT_THROW(tma::make_tma_descriptor(refusing_encode, valid_spec()), tma::TmaDescriptorError);
  EXPECT_THROW(tma::make_tma_descriptor(nullptr, valid_spec()), tma::TmaDescriptorError);
}

TEST(TmaDescriptor, SharedLayoutMustBeCompactColumnMajor) {
  try {
    tma::make_tma_descriptor(fake_encode, g_matrix, {64, 100}, {256}, make_layout(make_shape(_32{}, _16{}), make_stride(_16{}, _1{})));
    FAIL() << "a row-major box was accepted";
  } catch (const tma::TmaDescriptorError& e) {
    EXPECT_NE(std::string(e.what()).find("compact column-major"), std::string::npos) << e.what();
  }
}

// The Hopper GEMM's operand maps (kernels/gemm_operand_map.hpp): 16-bit A/B K-major and
// MN-major, and the f32 epilogue source (the plain GEMM's f32 C through the operand ring):
// 128-byte-wide boxes, byte strides from the element size, the 128-byte swizzle, zeros past the
// ends, and 256-byte L2 promotion for rows on 128-byte lines, 128-byte otherwise.
static void expect_gemm_map(kernels::GemmOperandMapSpec const& spec, CUtensorMapDataType type, std::vector<cuuint64_t> dims,
                            std::vector<cuuint64_t> strides, std::vector<cuuint32_t> box,
                            CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_128B) {
  kernels::make_gemm_operand_map(fake_encode, spec);
  EXPECT_EQ(g_rec.type, type);
  EXPECT_EQ(g_rec.dims, dims);
  EXPECT_EQ(g_rec.strides, strides);
  EXPECT_EQ(g_rec.box, box);
  EXPECT_EQ(g_rec.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(g_rec.l2, l2);
  EXPECT_EQ(g_rec.oob, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST(TmaDescriptor, GemmOperandMapsOfEachElementSize) {
  const kernels::GemmOperandMapSpec a{.data = g_matrix, .bf16 = true, .k_major = true, .rows = 300, .k = 520, .l = 2, .ld = 528,
                                      .batch_stride = 300 * 528, .box_rows = 128};
  expect_gemm_map(a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, {520, 300, 2}, {528 * 2, 300 * 528 * 2}, {64, 128, 1});
  kernels::GemmOperandMapSpec b = a;
  b.bf16 = false, b.k_major = false, b.ld = 304;  // f16, rows contiguous: (rows, K, L), 64 x 64 boxes
  expect_gemm_map(b, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, {300, 520, 2}, {304 * 2, 300 * 528 * 2}, {64, 64, 1});
  kernels::GemmOperandMapSpec c = a;  // f32 C: (columns, rows, batch), 32-row stages
  c.f32 = true, c.box_rows = 32;
  expect_gemm_map(c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, {520, 300, 2}, {528 * 4, 300 * 528 * 4}, {32, 32, 1});
}

// Rows on 128-byte lines (base, leading dimension and batch stride) load with 256-byte L2
// promotion; rows that straddle lines with 128-byte (gemm_operand_l2_promotion).
TEST(TmaDescriptor, GemmOperandMapsPromoteByRowAlignment) {
  kernels::GemmOperandMapSpec a{.data = g_matrix, .bf16 = true, .k_major = true, .rows = 300, .k = 512, .l = 2, .ld = 512,
                                .batch_stride = 300 * 512, .box_rows = 128};
  expect_gemm_map(a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, {512, 300, 2}, {1024, 300 * 1024}, {64, 128, 1}, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  kernels::GemmOperandMapSpec rows_off = a;  // 3000 x 2 bytes: rows 16 bytes off the lines (3000^3)
  rows_off.k = 3000, rows_off.ld = 3000, rows_off.batch_stride = 300 * 3000;
  expect_gemm_map(rows_off, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, {3000, 300, 2}, {6000, 300 * 6000}, {64, 128, 1});
  kernels::GemmOperandMapSpec base_off = a;  // a base 16 bytes into a line
  base_off.data = reinterpret_cast<const char*>(g_matrix) + 16;
  expect_gemm_map(base_off, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, {512, 300, 2}, {1024, 300 * 1024}, {64, 128, 1});
  kernels::GemmOperandMapSpec batch_off = a;  // batches 16 bytes off (rows of each batch on lines only in the first)
  batch_off.batch_stride = 300 * 512 + 8;
  expect_gemm_map(batch_off, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, {512, 300, 2}, {1024, (300 * 512 + 8) * 2}, {64, 128, 1});
  kernels::GemmOperandMapSpec one_batch = batch_off;  // a batch stride is not read when L = 1
  one_batch.l = 1;
  expect_gemm_map(one_batch, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, {512, 300, 1}, {1024, 300 * 1024}, {64, 128, 1}, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  kernels::GemmOperandMapSpec f32 = a;  // f32 C: 4-byte elements, 32-wide boxes
  f32.f32 = true, f32.box_rows = 32;
  expect_gemm_map(f32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, {512, 300, 2}, {2048, 300 * 2048}, {32, 32, 1}, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

#else
TEST(TmaDescriptor, NeedsCudaH) { GTEST_SKIP() << "SKIPPED: <cuda.h> not found: the TMA descriptor builder compiles to nothing"; }
#endif
