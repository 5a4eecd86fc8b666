// Compiled as C++20 by nvcc through CuteDSL::cute_dsl's usage requirements.
#include <cute_dsl/cute_dsl.hpp>

static_assert(__cplusplus >= 202002L, "CuteDSL::cute_dsl must make nvcc compile C++20");

__global__ void subproject_kernel(int* out) { out[0] = 1; }

int main() { return 0; }
