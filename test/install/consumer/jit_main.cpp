// A program built against the installed CuteDSL::jit: the library's headers are embedded, so
// NVRTC finds cute_dsl/layout/layout.hpp with no include path, wherever the package lives.
#include <cute_dsl/jit/jit.hpp>
#include <cute_dsl/jit/warmup.hpp>

#include <cstdio>
#include <string>

int main() {
  namespace jit = cute_dsl::jit;
  jit::KernelSpec spec;
  spec.source = std::string(
      "#include \"cute_dsl/layout/layout.hpp\"\n"
      "template <class L> __global__ void k(int* out) { out[threadIdx.x] = L{}(threadIdx.x); }\n");
  spec.kernel = "k";
  spec.template_args = jit::parse_template_args("(4,8):(8,1)").value();
  jit::CompileOptions options;
  options.arch = "sm_80";
  jit::KernelCache cache(jit::CacheConfig{false, {}});
  auto kernel = jit::compile(spec, options, cache);
  if (!kernel) {
    std::fprintf(stderr, "%s", kernel.error().describe().c_str());
    return 1;
  }
  std::printf("consumer jit: compiled %s (%zu-byte cubin)\n", (*kernel)->lowered_name.c_str(), (*kernel)->binary.size());
  // warmup()'s worker: the installed package's, not the build tree's it was built from.
  std::printf("consumer jit: worker %s\n", jit::find_warmup_worker().c_str());
  return 0;
}
