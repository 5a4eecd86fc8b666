// A device library for the link tests (link_test.cpp): a function that JIT kernels declare and
// call but do not define. Built by nvcc as a relocatable CUBIN, an LTO object and an archive.
extern "C" __device__ float devlib_axpb(float a, float x, float b) { return __fmaf_rn(a, x, b); }
