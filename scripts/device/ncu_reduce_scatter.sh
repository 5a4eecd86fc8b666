#!/usr/bin/env bash
# One-off: ncu of the fused reduce-scatter kernel vs the plain GEMM variant, one rank (no peers).
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
BUILD_DIR=/tmp/b
cmake -S . -B $BUILD_DIR -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_CUDA_FLAGS="--split-compile=8" > $OUT/build.log 2>&1
cmake --build $BUILD_DIR -j16 --target dist_gemm_rs >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
bench=$(find $BUILD_DIR -name dist_gemm_rs -type f)
for k in gemm_sm90_fused gemm_sm90_kernel; do
  timeout 200 ncu --target-processes all -k regex:$k -s 3 -c 1 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
    $bench --world 1 --iters 1 --shape 8192x8192x2048 > $OUT/ncu_$k.txt 2>&1
  grep -E "gemm_sm90|Duration|Throughput|Stall|Warp Cycles|Issued|L2 Hit|DRAM" $OUT/ncu_$k.txt | head -40
done
