// The GEMM autotune table under concurrent stores (issue 13 item 16): GemmTuningTable::update()
// holds an flock on <table>.lock around load, set, save, so processes and threads that store at
// once lose no row; damaged rows are still skipped, no temporary file is left behind.
#include "jit_test_support.hpp"

#include "cute_dsl/jit/gemm_autotune.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace jit_test;
namespace fs = std::filesystem;

constexpr int kProcesses = 8;
constexpr int kRowsEach = 16;

std::string row_key(int writer, int row) { return "writer " + std::to_string(writer) + " row " + std::to_string(row); }

// A row whose value says who wrote it, so that a row stored with another writer's value shows.
jit::GemmTuningTable::Row row_value(int writer, int row) {
  return {jit::gemm_sm90_config(128, 6, 1 + writer % 2), writer * 1000.0 + row};
}

void expect_every_row(const std::string& path, int writers) {
  const jit::GemmTuningTable table = jit::GemmTuningTable::load(path);
  EXPECT_FALSE(table.damaged());
  std::size_t missing = 0;
  for (int w = 0; w < writers; ++w)
    for (int r = 0; r < kRowsEach; ++r) {
      const auto* row = table.find(row_key(w, r));
      if (!row) {
        ++missing;
        continue;
      }
      EXPECT_EQ(row->config, row_value(w, r).config) << row_key(w, r);
      EXPECT_DOUBLE_EQ(row->ms, row_value(w, r).ms) << row_key(w, r);
    }
  EXPECT_EQ(missing, 0u) << "rows lost by concurrent stores";
}

// Only the table and its lock file: no temporary file of a store is left.
void expect_no_leftovers(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"gemm_sm90_autotune.txt", "gemm_sm90_autotune.txt.lock"}));
}

TEST(GemmTuningTableUpdate, ProcessesStoringAtOnceLoseNoRow) {
  TempDir dir;
  const std::string path = dir.path() + "/gemm_sm90_autotune.txt";
  // A damaged row and a good one from an earlier run: the good one survives, the damaged one goes.
  std::ofstream(path) << "cute_dsl gemm_sm90 autotune 1\ndamaged\t128 256 4 2 0\tnot-a-number\n"
                         "earlier\t128 256 4 2 0\t1.5\n";

  // The children wait on a pipe until all are forked, then store together: kProcesses x kRowsEach
  // read-modify-writes of one file. Without the lock most rows are lost (seen: 111 of 128).
  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  std::vector<pid_t> children;
  for (int w = 0; w < kProcesses; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(gate[1]);
      char c;
      while (::read(gate[0], &c, 1) > 0) {
      }
      int failed = 0;
      for (int r = 0; r < kRowsEach; ++r) failed += !jit::GemmTuningTable::update(path, row_key(w, r), row_value(w, r));
      ::_exit(failed == 0 ? 0 : 1);  // no gtest teardown in the child
    }
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);  // opens the gate
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a store failed";
  }
  expect_every_row(path, kProcesses);
  const jit::GemmTuningTable table = jit::GemmTuningTable::load(path);
  EXPECT_EQ(table.size(), std::size_t(kProcesses * kRowsEach + 1));
  ASSERT_NE(table.find("earlier"), nullptr);
  EXPECT_EQ(table.find("damaged"), nullptr);
  expect_no_leftovers(dir.path());
}

TEST(GemmTuningTableUpdate, ThreadsStoringAtOnceLoseNoRow) {
  // flock locks open files, not processes: two threads that each open the lock file exclude each
  // other too (fcntl's record locks would not).
  TempDir dir;
  const std::string path = dir.path() + "/gemm_sm90_autotune.txt";
  std::vector<std::thread> threads;
  for (int w = 0; w < 4; ++w)
    threads.emplace_back([&, w] {
      for (int r = 0; r < kRowsEach; ++r) EXPECT_TRUE(jit::GemmTuningTable::update(path, row_key(w, r), row_value(w, r)));
    });
  for (auto& t : threads) t.join();
  expect_every_row(path, 4);
  expect_no_leftovers(dir.path());
}

TEST(GemmTuningTableUpdate, UnwritableFolderIsAFailedStoreNotACrash) {
  TempDir dir;
  const std::string path = dir.path() + "/missing/gemm_sm90_autotune.txt";
  EXPECT_FALSE(jit::GemmTuningTable::update(path, "key", row_value(0, 0)));
  EXPECT_FALSE(fs::exists(dir.path() + "/missing"));
}

}  // namespace
