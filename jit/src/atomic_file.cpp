// The non-template half of atomic_file.hpp (POSIX: open O_EXCL, fsync, rename).
#include "atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace cute_dsl::jit::detail {

std::string write_new_file(const std::string& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return std::string("cannot create ") + path + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::string("cannot write ") + path + ": " + std::strerror(errno);
      ::close(fd);
      return why;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const std::string why = std::string("cannot fsync ") + path + ": " + std::strerror(errno);
    ::close(fd);
    return why;
  }
  if (::close(fd) != 0) return std::string("cannot close ") + path + ": " + std::strerror(errno);
  return {};
}

std::string unique_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++) + "." + std::to_string(rng() & 0xffffff);
}

std::string replace_file(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + unique_suffix();
  if (std::string why = write_new_file(tmp, bytes); !why.empty()) {
    ::unlink(tmp.c_str());
    return why;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return why;
  }
  return {};
}

}  // namespace cute_dsl::jit::detail
