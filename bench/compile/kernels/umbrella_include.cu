// The include cost of the umbrella header alone: nothing is instantiated.
#include <cute_dsl/cute_dsl.hpp>

extern "C" __global__ void umbrella_include_kernel(int* out) { out[0] = 29; }
