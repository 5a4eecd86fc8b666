// How fast the copy engines move data between the GPUs of one host, in the shapes the fused
// collectives use (kernels/gemm_sm90_reduce_scatter.hpp, gemm_sm90_all_gather.hpp): one
// contiguous copy or a 2D copy of rows of a band (4 or 8 KiB of each 16 KiB row); to one peer, to
// each peer on its own stream, or from every GPU to every other at once. No NCCL: peer access.
//
//   copy_engine_bandwidth [--mib 64] [--reps 5]
// Prints one JSON line per case: GB/s out of GPU 0 (1e9 bytes / s), median of the repetitions.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct CopyGpu {
  char* buffer = nullptr;  // 4 x the copy's bytes: room for a 2D copy of a quarter of each row
  std::vector<cudaStream_t> streams;
  cudaEvent_t start = nullptr, stop = nullptr;
};

// A copy of `bytes` from GPU `from` to `to`: contiguous (width 0) or as rows of `width` bytes,
// 16 KiB apart on both sides.
void copy(std::vector<CopyGpu>& gpus, int from, int to, std::size_t bytes, std::size_t width, cudaStream_t s) {
  if (width == 0) {
    check(cudaMemcpyAsync(gpus[to].buffer, gpus[from].buffer, bytes, cudaMemcpyDefault, s), "cudaMemcpyAsync");
  } else {
    const std::size_t pitch = 16384;
    check(cudaMemcpy2DAsync(gpus[to].buffer, pitch, gpus[from].buffer, pitch, width, bytes / width, cudaMemcpyDefault, s), "cudaMemcpy2DAsync");
  }
}

}  // namespace

int main(int argc, char** argv) try {
  std::size_t mib = 64;
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mib")) mib = std::size_t(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
  }
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (count < 2) throw std::runtime_error("needs 2 GPUs or more");
  const std::size_t bytes = mib << 20;
  std::vector<CopyGpu> gpus(static_cast<std::size_t>(count));
  for (int g = 0; g < count; ++g) {
    check(cudaSetDevice(g), "cudaSetDevice");
    for (int p = 0; p < count; ++p)
      if (p != g) {
        cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) check(e, "cudaDeviceEnablePeerAccess");
        cudaGetLastError();
      }
    check(cudaMalloc(&gpus[std::size_t(g)].buffer, 4 * bytes), "cudaMalloc");
    check(cudaMemset(gpus[std::size_t(g)].buffer, g, 4 * bytes), "cudaMemset");
    for (int p = 0; p < count; ++p) {
      cudaStream_t s;
      check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
      gpus[std::size_t(g)].streams.push_back(s);
    }
    check(cudaEventCreate(&gpus[std::size_t(g)].start), "cudaEventCreate");
    check(cudaEventCreate(&gpus[std::size_t(g)].stop), "cudaEventCreate");
  }
  for (int g = 0; g < count; ++g) check(cudaSetDevice(g), "cudaSetDevice"), check(cudaDeviceSynchronize(), "sync");

  // senders: 1 (GPU 0) or all; peers per sender: 1 or all; lanes: one stream for all its copies, or one per peer.
  struct Case {
    const char* name;
    bool all_senders, all_peers, lane_per_peer;
    std::size_t width;
  };
  const Case cases[] = {
      {"one peer, contiguous", false, false, false, 0},
      {"one peer, 2D 4 KiB rows", false, false, false, 4096},
      {"one peer, 2D 8 KiB rows", false, false, false, 8192},
      {"all peers, one stream, contiguous", false, true, false, 0},
      {"all peers, stream per peer, contiguous", false, true, true, 0},
      {"all peers, stream per peer, 2D 4 KiB rows", false, true, true, 4096},
      {"every GPU to all peers, one stream each, contiguous", true, true, false, 0},
      {"every GPU to all peers, stream per peer, contiguous", true, true, true, 0},
      {"every GPU to all peers, stream per peer, 2D 4 KiB rows", true, true, true, 4096},
  };
  for (const Case& c : cases) {
    std::vector<double> gbps;
    for (int rep = 0; rep < reps + 1; ++rep) {
      const int senders = c.all_senders ? count : 1;
      for (int g = 0; g < count; ++g) check(cudaSetDevice(g), "cudaSetDevice"), check(cudaDeviceSynchronize(), "sync");
      for (int g = 0; g < senders; ++g) {
        check(cudaSetDevice(g), "cudaSetDevice");
        CopyGpu& me = gpus[std::size_t(g)];
        check(cudaEventRecord(me.start, me.streams[0]), "cudaEventRecord");
        int sent = 0;
        for (int j = 1; j < count && (c.all_peers || j == 1); ++j, ++sent) {
          const int to = (g + j) % count;
          cudaStream_t s = c.lane_per_peer ? me.streams[std::size_t(j)] : me.streams[0];
          if (s != me.streams[0]) check(cudaStreamWaitEvent(s, me.start), "cudaStreamWaitEvent");
          copy(gpus, g, to, bytes, c.width, s);
          if (s != me.streams[0]) {
            cudaEvent_t done;
            check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
            check(cudaEventRecord(done, s), "cudaEventRecord");
            check(cudaStreamWaitEvent(me.streams[0], done), "cudaStreamWaitEvent");
            cudaEventDestroy(done);
          }
        }
        check(cudaEventRecord(me.stop, me.streams[0]), "cudaEventRecord");
        (void)sent;
      }
      for (int g = 0; g < senders; ++g) check(cudaSetDevice(g), "cudaSetDevice"), check(cudaDeviceSynchronize(), "sync");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, gpus[0].start, gpus[0].stop), "cudaEventElapsedTime");
      const int peers = c.all_peers ? count - 1 : 1;
      if (rep > 0) gbps.push_back(double(bytes) * peers / (ms * 1e-3) / 1e9);  // the first is a warm-up
    }
    std::sort(gbps.begin(), gbps.end());
    std::printf("{\"gpus\": %d, \"case\": \"%s\", \"mib_per_copy\": %zu, \"gpu0_out_gbps_median\": %.1f, \"min\": %.1f, \"max\": %.1f}\n", count,
                c.name, mib, gbps[gbps.size() / 2], gbps.front(), gbps.back());
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "ERROR: %s\n", e.what());
  return 1;
}
