// The kernel families the AOT export knows (export.hpp): which spec, how C declares the
// parameters, and the C helpers that compute what the JIT's own launchers compute (the
// elementwise one-trip grid; the GEMM's tensor maps and persistent grid).
#include "cute_dsl/jit/export.hpp"

#include "cute_dsl/kernels/elementwise_defaults.hpp"
#include "cute_dsl/kernels/gemm_operand_map.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"

#include <cstddef>
#include <string>

namespace cute_dsl::jit {

namespace {

JitError invalid(std::string message) { return JitError{JitErrorKind::invalid_option, std::move(message), {}, {}, {}}; }

int bytes_of(ElementType t) {
  switch (t) {
    case ElementType::f64: return 8;
    case ElementType::f32: return 4;
    default: return 2;
  }
}

}  // namespace

std::string_view to_string(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::copy: return "copy";
    case ElementwiseOp::add: return "add";
    case ElementwiseOp::axpby: return "axpby";
    case ElementwiseOp::relu: return "relu";
    case ElementwiseOp::gelu: return "gelu";
    case ElementwiseOp::silu: return "silu";
  }
  return "?";
}

Expected<ElementwiseOp, JitError> parse_elementwise_op(std::string_view name) {
  for (auto op : {ElementwiseOp::copy, ElementwiseOp::add, ElementwiseOp::axpby, ElementwiseOp::relu,
                  ElementwiseOp::gelu, ElementwiseOp::silu})
    if (to_string(op) == name) return op;
  return unexpected(invalid("unknown elementwise op '" + std::string(name) + "' (copy, add, axpby, relu, gelu, silu)"));
}

Expected<ExportKernel, JitError> elementwise_export(ElementwiseOp op, ElementType type) {
  if (type != ElementType::f32 && type != ElementType::f64 && type != ElementType::f16 && type != ElementType::bf16)
    return unexpected(invalid("elementwise export: the element type must be f32, f64, f16 or bf16, not " +
                              std::string(to_string(type))));
  const bool binary = op == ElementwiseOp::add || op == ElementwiseOp::axpby;
  ExportKernel k;
  k.family = "elementwise";
  k.spec.header = "cute_dsl/kernels/elementwise.hpp";
  k.spec.template_args = {TemplateArg::type(type)};
  if (op == ElementwiseOp::copy) {
    k.spec.kernel = "cute_dsl::kernels::copy_kernel";
  } else {
    static constexpr const char* kFunctor[] = {"", "Add", "Axpby", "Relu", "Gelu", "Silu"};
    k.spec.kernel = binary ? "cute_dsl::kernels::elementwise_binary_kernel" : "cute_dsl::kernels::elementwise_unary_kernel";
    k.spec.template_args.push_back(TemplateArg::raw("cute_dsl::kernels::" + std::string(kFunctor[int(op)])));
  }
  const std::string t(to_string(type));
  k.summary = std::string(to_string(op)) + " " + t + ": out[i] = " +
              (op == ElementwiseOp::copy    ? "a[i]"
               : op == ElementwiseOp::add   ? "a[i] + b[i]"
               : op == ElementwiseOp::axpby ? "alpha * a[i] + beta * b[i]"
                                            : std::string(to_string(op)) + "(a[i])") +
              " for i < n (" + t + " device buffers, any alignment; 16-byte aligned is fastest)";
  k.parameters = {{"CUdeviceptr", "out"}, {"CUdeviceptr", "a"}};
  if (binary) k.parameters.push_back({"CUdeviceptr", "b"});
  k.parameters.push_back({"long long", "n"});
  if (op == ElementwiseOp::axpby) {
    k.c_types = "/* The functor, passed by value: kernels::Axpby. */\ntypedef struct @P@_axpby { float alpha, beta; } @P@_axpby;\n";
    k.parameters.push_back({"@P@_axpby", "op"});
  } else if (op != ElementwiseOp::copy) {
    k.parameters.push_back({"unsigned char", "op"});  // an empty functor: one byte, any value
  }
  k.block = {unsigned(kernels::kElementwiseThreads), 1, 1};
  const long long per_block = (16 / bytes_of(type)) * kernels::kElementwiseThreads * kernels::kElementwiseUnroll;
  k.c_header = "/* The library's one-trip grid for n elements (elementwise_onetrip_grid): one block per " +
               std::to_string(per_block) + " elements. */\n@P@_dim3 @P@_grid(long long n);\n";
  k.c_source = "@P@_dim3 @P@_grid(long long n) {\n"
               "  const long long per_block = " + std::to_string(per_block) + ";\n"
               "  long long blocks = (n + per_block - 1) / per_block;\n"
               "  @P@_dim3 grid;\n"
               "  if (blocks < 1) blocks = 1;\n"
               "  if (blocks > 2147483647LL) blocks = 2147483647LL;\n"
               "  grid.x = (unsigned)blocks;\n  grid.y = 1;\n  grid.z = 1;\n"
               "  return grid;\n}\n";
  return k;
}

namespace {

// The C twin of kernels::GemmSm90Params<void>, with its offsets and size checked against the C++
// struct's (this file's offsetof) in the generated source.
std::string gemm_params_types() {
  using P = kernels::GemmSm90Params<void>;
  const std::size_t end = offsetof(P, split_from) + sizeof(int);
  std::string types =
      "/* The kernel's one parameter: kernels::GemmSm90Params (gemm_sm90.hpp), field for field. */\n"
      "typedef struct @P@_gemm_epilogue {\n"
      "  CUdeviceptr d, c;\n  long long ldd, batch_stride_d, ldc, batch_stride_c;\n  int m, n;\n  float alpha, beta;\n"
      "} @P@_gemm_epilogue;\n"
      "typedef struct @P@_global_box { CUdeviceptr ptr; int extent[3]; long long stride[2]; } @P@_global_box;\n"
      "/* A CUtensorMap's bytes: cuda.h's own type is 64- or 128-aligned depending on the language and\n"
      " * the CUDA version, the kernel's is 64-aligned: this one is 8-aligned and padded explicitly. */\n"
      "typedef struct @P@_tensor_map { cuuint64_t opaque[16]; } @P@_tensor_map;\n"
      "typedef struct @P@_gemm_params {\n"
      "  @P@_tensor_map tma_a, tma_b;\n  int k, l;\n  @P@_gemm_epilogue epilogue;\n  @P@_global_box box_a, box_b;\n"
      "  int splits;\n  CUdeviceptr partials, tile_counters;\n  int split_from;\n";
  // The fields between split_from and tma_a_rows (the ring source, stream-K) stay zero from C.
  const std::size_t rows_at = offsetof(P, tma_a_rows), rows_end = rows_at + sizeof(TmaDescriptor);
  if (rows_at > end) types += "  unsigned char zeroed_fields[" + std::to_string(rows_at - end) + "];\n";
  types += "  @P@_tensor_map tma_a_rows; /* A in row boxes: the last row block's loads */\n";
  // 8-aligned in C: pad to the device struct's size (a multiple of its 64-byte alignment).
  if (sizeof(P) > rows_end) types += "  unsigned char tail_padding[" + std::to_string(sizeof(P) - rows_end) + "];\n";
  return types + "} @P@_gemm_params;\n";
}

std::string gemm_params_checks() {
  using P = kernels::GemmSm90Params<void>;
  std::string s = "/* @P@_gemm_params is kernels::GemmSm90Params byte for byte. */\n"
                  "typedef char @P@_tensor_map_is_a_CUtensorMap[sizeof(@P@_tensor_map) == sizeof(CUtensorMap) ? 1 : -1];\n";
  auto check = [&](const char* field, std::size_t offset) {
    s += "typedef char @P@_gemm_params_" + std::string(field) + "_at_" + std::to_string(offset) +
         "[offsetof(@P@_gemm_params, " + field + ") == " + std::to_string(offset) + " ? 1 : -1];\n";
  };
  check("tma_b", offsetof(P, tma_b));
  check("k", offsetof(P, k));
  check("l", offsetof(P, l));
  check("epilogue", offsetof(P, epilogue));
  check("box_a", offsetof(P, box_a));
  check("box_b", offsetof(P, box_b));
  check("splits", offsetof(P, splits));
  check("partials", offsetof(P, partials));
  check("tile_counters", offsetof(P, tile_counters));
  check("split_from", offsetof(P, split_from));
  check("tma_a_rows", offsetof(P, tma_a_rows));
  s += "typedef char @P@_gemm_params_size_is_" + std::to_string(sizeof(P)) + "[sizeof(@P@_gemm_params) == " +
       std::to_string(sizeof(P)) + " ? 1 : -1];\n";
  return s;
}

}  // namespace

Expected<ExportKernel, JitError> gemm_sm90_export(const GemmSm90Types& t, const GemmSm90Config& c) {
  if (std::string why = gemm_sm90_unsupported(t, c); !why.empty()) return unexpected(invalid(why));
  ExportKernel k;
  k.family = "gemm_sm90";
  k.spec = gemm_sm90_spec(t, c);
  k.allowed_archs = {"sm_90a"};
  auto major = [](GemmMajor m) { return m == GemmMajor::k ? "K-major" : "MN-major"; };
  k.summary = "D = alpha * A * B^T + beta * C: A (M x K, " + std::string(major(t.a_major)) + ") and B (N x K, " +
              major(t.b_major) + ") " + std::string(to_string(t.a)) + ", C and D (M x N row-major) " +
              std::string(to_string(t.d)) + "; " + to_string(c);
  k.block = {kGemmSm90Threads, 1, 1};
  k.cluster = {unsigned(c.cluster_m), unsigned(c.cluster_n), 1};
  k.dynamic_smem_bytes = gemm_sm90_shared_bytes(c);
  k.parameters = {{"@P@_gemm_params", "p"}};
  k.c_types = gemm_params_types();
  k.c_header =
      "/* One GEMM (jit::GemmSm90Arguments): A is M x K and B is N x K, each K-major (lda: elements\n"
      " * between rows) or MN-major (lda: elements between K columns) as exported; C and D are M x N\n"
      " * row-major; batches (l) are batch_stride_* elements apart. C is read only when beta != 0. */\n"
      "typedef struct @P@_problem {\n"
      "  int m, n, k, l;\n"
      "  CUdeviceptr a;\n  long long lda, batch_stride_a;\n"
      "  CUdeviceptr b;\n  long long ldb, batch_stride_b;\n"
      "  CUdeviceptr d;\n  long long ldd, batch_stride_d;\n"
      "  CUdeviceptr c;\n  long long ldc, batch_stride_c;\n"
      "  float alpha, beta;\n"
      "} @P@_problem;\n\n"
      "/* Checks the problem (CUDA_ERROR_INVALID_VALUE: a size below 1, A or B or their leading dimensions\n"
      " * not 16-byte aligned, a leading dimension too small) and fills the parameters: both tensor maps\n"
      " * (cuTensorMapEncodeTiled) and the epilogue. */\n"
      "CUresult @P@_make_params(const @P@_problem* problem, @P@_params* params);\n"
      "/* The persistent grid: as many clusters as fit at once (cuOccupancyMaxActiveClusters), never\n"
      " * more than there are tiles. Needs the loaded kernel and its context current. */\n"
      "CUresult @P@_grid(const @P@_kernel* kernel, const @P@_problem* problem, @P@_dim3* grid);\n"
      "/* _make_params, _grid and _launch. */\n"
      "CUresult @P@_run(const @P@_kernel* kernel, const @P@_problem* problem, CUstream stream);\n";
  const bool a_k = t.a_major == GemmMajor::k, b_k = t.b_major == GemmMajor::k;
  const std::string tile_m = std::to_string(c.tile_m), tile_n = std::to_string(c.tile_n),
                    cluster_m = std::to_string(c.cluster_m);
  k.c_source =
      "#include <stdint.h>\n\n" + gemm_params_checks() +
      "\n/* The operand's tensor map, as kernels/gemm_operand_map.hpp makes it: K-major (K, rows, L) with a\n"
      " * 64 x box_rows box, MN-major (rows, K, L) with 64 x 64 boxes; 128-byte swizzle, zeros past the ends;\n"
      " * 256-byte L2 promotion where every row starts on a 128-byte line, else 128 (gemm_operand_l2_promotion). */\n"
      "static CUresult @P@_operand_map(@P@_tensor_map* out, CUdeviceptr data, int k_major, int rows, int k, int l,\n"
      "                                long long ld, long long batch_stride, unsigned box_rows) {\n"
      "  unsigned char storage[sizeof(CUtensorMap) + 64]; /* encoded at a 64-byte aligned address */\n"
      "  CUtensorMap* map = (CUtensorMap*)(((uintptr_t)storage + 63) & ~(uintptr_t)63);\n"
      "  const long long inner = k_major ? k : rows, outer = k_major ? rows : k;\n"
      "  const long long batch = l > 1 ? batch_stride : ld * outer;\n"
      "  cuuint64_t shape[3], strides[2];\n  cuuint32_t box[3], element_strides[3] = {1, 1, 1};\n  CUresult r;\n"
      "  const int rows_on_lines = data % 128 == 0 && (ld * 2) % 128 == 0 && (l == 1 || (batch_stride * 2) % 128 == 0);\n"
      "  shape[0] = (cuuint64_t)inner;\n  shape[1] = (cuuint64_t)outer;\n  shape[2] = (cuuint64_t)l;\n"
      "  strides[0] = (cuuint64_t)ld * 2;\n  strides[1] = (cuuint64_t)batch * 2;\n"
      "  box[0] = " + std::to_string(kernels::kGemmOperandBoxK) + ";\n"
      "  box[1] = k_major ? box_rows : " + std::to_string(kernels::kGemmOperandBoxK) + ";\n  box[2] = 1;\n"
      "  r = cuTensorMapEncodeTiled(map, " +
      (t.a == ElementType::bf16 ? "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16" : "CU_TENSOR_MAP_DATA_TYPE_FLOAT16") +
      ", 3, (void*)(uintptr_t)data, shape, strides, box,\n"
      "                             element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,\n"
      "                             rows_on_lines ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B,\n"
      "                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);\n"
      "  if (r == CUDA_SUCCESS) memcpy(out, map, sizeof *out);\n"
      "  return r;\n}\n\n"
      "CUresult @P@_make_params(const @P@_problem* q, @P@_params* params) {\n"
      "  @P@_gemm_params* p;\n  CUresult r;\n"
      "  if (q == NULL || params == NULL) return CUDA_ERROR_INVALID_VALUE;\n"
      "  if (q->m < 1 || q->n < 1 || q->k < 1 || q->l < 1 || q->d == 0) return CUDA_ERROR_INVALID_VALUE;\n"
      "  if (q->a % 16 || q->b % 16 || (q->lda * 2) % 16 || (q->ldb * 2) % 16) return CUDA_ERROR_INVALID_VALUE; /* TMA */\n"
      "  if (q->l > 1 && ((q->batch_stride_a * 2) % 16 || (q->batch_stride_b * 2) % 16)) return CUDA_ERROR_INVALID_VALUE;\n"
      "  if (q->lda < " + (a_k ? "q->k" : "q->m") + " || q->ldb < " + (b_k ? "q->k" : "q->n") +
      " || q->ldd < q->n) return CUDA_ERROR_INVALID_VALUE;\n"
      "  if (q->beta != 0.f && (q->c == 0 || q->ldc < q->n)) return CUDA_ERROR_INVALID_VALUE;\n"
      "  memset(params, 0, sizeof *params);\n"
      "  p = &params->p;\n"
      "  if ((r = @P@_operand_map(&p->tma_a, q->a, " + (a_k ? "1" : "0") + ", q->m, q->k, q->l, q->lda, q->batch_stride_a, " +
      tile_m + ")) != CUDA_SUCCESS) return r;\n"
      "  if ((r = @P@_operand_map(&p->tma_a_rows, q->a, " + (a_k ? "1" : "0") + ", q->m, q->k, q->l, q->lda, q->batch_stride_a, " +
      std::to_string(kernels::gemm_sm90_box_rows_a(c.tile_m)) + ")) != CUDA_SUCCESS) return r;\n"
      "  if ((r = @P@_operand_map(&p->tma_b, q->b, " + (b_k ? "1" : "0") + ", q->n, q->k, q->l, q->ldb, q->batch_stride_b, " +
      std::to_string(c.tile_n / c.cluster_m) + ")) != CUDA_SUCCESS) return r;\n"
      "  p->k = q->k;\n  p->l = q->l;\n  p->splits = 1; /* no split-K, TMA main loop (as the JIT launches it) */\n"
      "  p->epilogue.d = q->d;\n  p->epilogue.c = q->c;\n"
      "  p->epilogue.ldd = q->ldd;\n  p->epilogue.batch_stride_d = q->batch_stride_d;\n"
      "  p->epilogue.ldc = q->ldc;\n  p->epilogue.batch_stride_c = q->batch_stride_c;\n"
      "  p->epilogue.m = q->m;\n  p->epilogue.n = q->n;\n  p->epilogue.alpha = q->alpha;\n  p->epilogue.beta = q->beta;\n"
      "  return CUDA_SUCCESS;\n}\n\n"
      "CUresult @P@_grid(const @P@_kernel* kernel, const @P@_problem* q, @P@_dim3* grid) {\n"
      "  CUdevice device;\n  CUlaunchConfig probe;\n  CUlaunchAttribute cluster;\n"
      "  int sms = 0, active = 0;\n  long long tiles, clusters;\n  CUresult r;\n"
      "  if (kernel == NULL || kernel->function == NULL || q == NULL || grid == NULL) return CUDA_ERROR_INVALID_VALUE;\n"
      "  if ((r = cuCtxGetDevice(&device)) != CUDA_SUCCESS) return r;\n"
      "  if ((r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device)) != CUDA_SUCCESS) return r;\n"
      "  memset(&probe, 0, sizeof probe);\n  memset(&cluster, 0, sizeof cluster);\n"
      "  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
      "  cluster.value.clusterDim.x = @PU@_CLUSTER_X;\n  cluster.value.clusterDim.y = 1;\n  cluster.value.clusterDim.z = 1;\n"
      "  probe.gridDimX = (unsigned)(@PU@_CLUSTER_X * (sms / @PU@_CLUSTER_X));\n  probe.gridDimY = 1;\n  probe.gridDimZ = 1;\n"
      "  probe.blockDimX = @PU@_BLOCK_X;\n  probe.blockDimY = 1;\n  probe.blockDimZ = 1;\n"
      "  probe.sharedMemBytes = @PU@_DYNAMIC_SMEM_BYTES;\n  probe.attrs = &cluster;\n  probe.numAttrs = 1;\n"
      "  if (cuOccupancyMaxActiveClusters(&active, kernel->function, &probe) != CUDA_SUCCESS || active < 1)\n"
      "    active = sms / @PU@_CLUSTER_X;\n"
      "  /* GemmTileScheduler's count: tiles of " + tile_m + "*" + cluster_m + " x " + tile_n + " per batch. */\n"
      "  tiles = ((q->m + " + tile_m + " * " + cluster_m + " - 1) / (" + tile_m + " * " + cluster_m + ")) * ((q->n + " +
      tile_n + " - 1) / " + tile_n + ") * q->l;\n"
      "  clusters = tiles < active ? tiles : active;\n"
      "  if (clusters < 1) clusters = 1;\n"
      "  grid->x = (unsigned)(clusters * @PU@_CLUSTER_X);\n  grid->y = 1;\n  grid->z = 1;\n"
      "  return CUDA_SUCCESS;\n}\n\n"
      "CUresult @P@_run(const @P@_kernel* kernel, const @P@_problem* problem, CUstream stream) {\n"
      "  @P@_params params;\n  @P@_dim3 grid;\n  CUresult r;\n"
      "  if ((r = @P@_make_params(problem, &params)) != CUDA_SUCCESS) return r;\n"
      "  if ((r = @P@_grid(kernel, problem, &grid)) != CUDA_SUCCESS) return r;\n"
      "  return @P@_launch(kernel, &params, grid, stream);\n}\n";
  return k;
}

ExportKernel custom_export(KernelSpec spec, Dim3 block, Dim3 cluster, unsigned dynamic_smem_bytes) {
  ExportKernel k;
  k.family = "custom";
  k.summary = "the kernel " + spec.name_expression() + " (parameters as the CUBIN lays them out: p0, p1, ...)";
  k.spec = std::move(spec);
  k.block = block;
  k.cluster = cluster;
  k.dynamic_smem_bytes = dynamic_smem_bytes;
  return k;
}

}  // namespace cute_dsl::jit
