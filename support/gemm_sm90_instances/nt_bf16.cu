// One launcher of gemm_sm90_instances.hpp, compiled here once.
#include "gemm_sm90_instances.hpp"

CUTE_DSL_GEMM_SM90_INSTANCE(, MN, MN, __nv_bfloat16, __nv_bfloat16)
