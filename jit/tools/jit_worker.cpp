// cute-dsl-jit-worker: one of warmup()'s worker processes (protocol: jit/src/warmup.cpp).
#include "cute_dsl/jit/warmup.hpp"

int main(int argc, char** argv) { return cute_dsl::jit::warmup_worker_main(argc, argv); }
