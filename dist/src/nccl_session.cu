// NCCL set-up for the distributed kernels (include/cute_dsl/dist/nccl_session.hpp).
#include "cute_dsl/dist/nccl_session.hpp"

#include <nccl_device.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_dsl::dist {

namespace {

void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("cute_dsl::dist: ") + what + ": " + cudaGetErrorString(err));
}
void check_nccl(ncclResult_t err, const char* what) {
  if (err != ncclSuccess) throw std::runtime_error(std::string("cute_dsl::dist: ") + what + ": " + ncclGetErrorString(err));
}

// Where each rank's copy of the window lies in this GPU's address space (null: not load/store
// reachable).
__global__ void gather_peer_pointers(ncclWindow_t window, int world, char** out) {
  for (int p = threadIdx.x; p < world; p += blockDim.x) out[p] = static_cast<char*>(ncclGetPeerPointer(window, 0, p));
}

}  // namespace

int run_local_ranks(int world, const std::function<int(int, int, const ncclUniqueId&)>& fn) {
  if (world < 1 || world > kMaxRanks)
    throw std::runtime_error("cute_dsl::dist::run_local_ranks: world must be in [1, " + std::to_string(kMaxRanks) + "], got " +
                             std::to_string(world));
  // The GPU count from a child: the parent must not initialise CUDA before forking.
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cute_dsl::dist::run_local_ranks: pipe failed");
  pid_t probe = fork();
  if (probe == 0) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    (void)!write(fds[1], &count, sizeof count);
    _exit(0);
  }
  int gpus = 0;
  (void)!read(fds[0], &gpus, sizeof gpus);
  close(fds[0]), close(fds[1]);
  waitpid(probe, nullptr, 0);
  if (gpus < world)
    throw std::runtime_error("cute_dsl::dist::run_local_ranks: " + std::to_string(world) + " ranks need " + std::to_string(world) +
                             " GPUs, this machine has " + std::to_string(gpus));
  ncclUniqueId id;
  check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  std::vector<pid_t> children;
  for (int rank = 0; rank < world; ++rank) {
    pid_t pid = fork();
    if (pid == 0) {
      int status = 1;
      try {
        status = fn(rank, world, id);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ERROR: rank %d: %s\n", rank, e.what());
      }
      std::fflush(nullptr);
      _exit(status);
    }
    children.push_back(pid);
  }
  int result = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (code != 0 && result == 0) result = code;
  }
  return result;
}

NcclSession::NcclSession(int rank, int world, const ncclUniqueId& id) : rank_(rank), world_(world) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // never NVLink multicast (see the header)
  check_cuda(cudaSetDevice(rank), "cudaSetDevice");
  for (int p = 0; p < world; ++p) {
    if (p == rank) continue;
    int ok = 0;
    check_cuda(cudaDeviceCanAccessPeer(&ok, rank, p), "cudaDeviceCanAccessPeer");
    if (!ok)
      throw std::runtime_error("cute_dsl::dist: GPU " + std::to_string(rank) + " cannot load/store GPU " + std::to_string(p) +
                               "'s memory (no NVLink / P2P): the symmetric windows need it");
  }
  check_nccl(ncclCommInitRank(&comm_, world, id, rank), "ncclCommInitRank");
  check_cuda(cudaMalloc(&scratch_, sizeof(int)), "cudaMalloc");
}

NcclSession::~NcclSession() {
  if (scratch_) cudaFree(scratch_);
  if (comm_) ncclCommDestroy(comm_);
}

void NcclSession::barrier(cudaStream_t stream) const {
  check_nccl(ncclAllReduce(scratch_, scratch_, 1, ncclInt32, ncclSum, comm_, stream), "ncclAllReduce (barrier)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

SymmetricBuffer::SymmetricBuffer(NcclSession& session, std::size_t bytes) : session_(session), bytes_(bytes) {
  if (session.world() > kMaxRanks) throw std::runtime_error("cute_dsl::dist::SymmetricBuffer: more ranks than kMaxRanks");
  check_nccl(ncclMemAlloc(&local_, bytes), "ncclMemAlloc");
  check_cuda(cudaMemset(local_, 0, bytes), "cudaMemset");
  check_nccl(ncclCommWindowRegister(session.comm(), local_, bytes, &window_, NCCL_WIN_COLL_SYMMETRIC), "ncclCommWindowRegister");
  view_.rank = session.rank(), view_.world = session.world();
  // The window's descriptor must be device memory for ncclGetPeerPointer to read it in a kernel;
  // NCCL keeps none for a single rank (nothing to map).
  cudaPointerAttributes attributes{};
  const bool device_window = window_ != nullptr && cudaPointerGetAttributes(&attributes, window_) == cudaSuccess &&
                             (attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged);
  (void)cudaGetLastError();
  if (!device_window) {
    // NCCL registers no window for a communicator of one rank (nothing to map): the local copy
    // is the whole view.
    if (session.world() != 1)
      throw std::runtime_error("cute_dsl::dist::SymmetricBuffer: ncclCommWindowRegister gave no device-side window for " +
                               std::to_string(session.world()) + " ranks (memory type " + std::to_string(int(attributes.type)) +
                               ")");
    view_.base[0] = static_cast<char*>(local_);
    session.barrier();
    return;
  }
  char** dev = nullptr;
  check_cuda(cudaMalloc(&dev, sizeof(char*) * kMaxRanks), "cudaMalloc");
  gather_peer_pointers<<<1, 32>>>(window_, session.world(), dev);
  check_cuda(cudaGetLastError(), "gather_peer_pointers launch");
  check_cuda(cudaMemcpy(view_.base, dev, sizeof(char*) * session.world(), cudaMemcpyDeviceToHost), "cudaMemcpy (peer pointers)");
  cudaFree(dev);
  for (int p = 0; p < session.world(); ++p)
    if (view_.base[p] == nullptr)
      throw std::runtime_error("cute_dsl::dist::SymmetricBuffer: rank " + std::to_string(p) +
                               "'s window is not load/store reachable from rank " + std::to_string(session.rank()));
  session.barrier();  // every rank zeroed its copy before anyone writes into it
}

SymmetricBuffer::~SymmetricBuffer() {
  cudaDeviceSynchronize();
  if (window_) ncclCommWindowDeregister(session_.comm(), window_);
  if (local_) ncclMemFree(local_);
}

}  // namespace cute_dsl::dist
