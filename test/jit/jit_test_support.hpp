// Shared by the JIT tests: a temporary folder, the elementwise spec, the path of this program.
#pragma once

#include "cute_dsl/jit/jit.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace jit_test {

namespace jit = cute_dsl::jit;

// A fresh folder under the system temp folder, removed with the object.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cute_dsl_jit_test.XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Sets (or with nullptr unsets) an environment variable for the object's lifetime and restores
// the old value after, also when an ASSERT returns early.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_.c_str(), old_->c_str(), 1);
    else ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// CUTE_DSL_JIT_TEST_KERNELS in the environment moves it (the binary run from another checkout).
inline std::string kernels_dir() {
  const char* moved = std::getenv("CUTE_DSL_JIT_TEST_KERNELS");
  return moved && *moved ? std::string(moved) : std::string(CUTE_DSL_JIT_TEST_KERNELS);
}

// scale<f32, (4,8):(8,1), 128> from kernels/elementwise.cuh, read from disk.
inline jit::KernelSpec elementwise_spec(std::string targs = "f32, (4,8):(8,1), 128") {
  jit::KernelSpec spec;
  auto h = jit::load_header_file(kernels_dir() + "/elementwise.cuh");
  spec.header = h->name;
  spec.headers.push_back(*h);
  spec.kernel = "cute_dsl_jit_test::scale";
  spec.template_args = jit::parse_template_args(targs).value();
  return spec;
}

inline jit::CompileOptions options_for(const std::string& arch) {
  jit::CompileOptions o;
  o.arch = arch;
  return o;
}

inline jit::CacheConfig memory_only() { return jit::CacheConfig{false, {}}; }
inline jit::CacheConfig on_disk(const std::string& dir) { return jit::CacheConfig{true, dir}; }

// The path of the running test program, for tests that need a second process.
std::string self_path();
// Runs `command` through the shell; returns its exit status and fills `output` (stdout+stderr).
inline int run_command(const std::string& command, std::string& output) {
  output.clear();
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) output.append(buf, n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace jit_test
