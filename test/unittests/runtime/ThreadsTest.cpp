//===- ThreadsTest.cpp - The thread count of compiled code ----------------===//
//
// tsir-runtime/Threads.h: `--threads` values, the default count, finding
// libomp among the loaded libraries and setting its team size per calling
// thread. The runtime's tests load nothing that brings libomp in, so the
// first checks see a process without it.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Threads.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

using namespace tsir::rt;

namespace {

TEST(ThreadsTest, ParsesCountsAndLists) {
  auto one = parseThreadCounts("4");
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(*one, (std::vector<int>{4}));
  auto list = parseThreadCounts("1,2,8");
  ASSERT_TRUE(list.ok()) << list.status().message();
  EXPECT_EQ(*list, (std::vector<int>{1, 2, 8}));
}

TEST(ThreadsTest, RefusesWhatIsNotACount) {
  for (const char *text : {"0", "-1", "", "two", "2x", "1,,2", "1,", ",1",
                           "99999999999999999999", "1.5"}) {
    auto parsed = parseThreadCounts(text);
    ASSERT_FALSE(parsed.ok()) << "'" << text << "' was accepted";
    EXPECT_EQ(parsed.status().message(),
              std::string("--threads takes a thread count of at least 1, or "
                          "a comma-separated list of them (1,2), not '") +
                  text + "'");
  }
}

TEST(ThreadsTest, TheDefaultIsOmpNumThreadsElseTheCores) {
  const char *saved = std::getenv("OMP_NUM_THREADS");
  std::string restore = saved ? saved : "";
  setenv("OMP_NUM_THREADS", "3", 1);
  EXPECT_EQ(defaultThreadCount(), 3);
  // Counts per nesting level: the outermost one.
  setenv("OMP_NUM_THREADS", "5,2", 1);
  EXPECT_EQ(defaultThreadCount(), 5);
  unsigned cores = std::thread::hardware_concurrency();
  for (const char *ignored : {"0", "abc", ""}) {
    setenv("OMP_NUM_THREADS", ignored, 1);
    EXPECT_EQ(defaultThreadCount(), cores ? int(cores) : 1) << ignored;
  }
  if (saved)
    setenv("OMP_NUM_THREADS", restore.c_str(), 1);
  else
    unsetenv("OMP_NUM_THREADS");
}

TEST(ThreadsTest, SetsLibompsCountPerCallingThread) {
  // Nothing has loaded libomp yet: nothing to set, but the count is kept
  // for when a compile loads it (11: not libomp's default here).
  EXPECT_FALSE(openMPRuntimeLoaded());
  EXPECT_FALSE(setThreadCount(11));
  EXPECT_EQ(currentThreadCount(), 1);

  Status missing = loadOpenMPRuntime("/nonexistent/libomp.so");
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.message().find("cannot load the OpenMP runtime "
                                   "/nonexistent/libomp.so"),
            std::string::npos)
      << missing.message();
  EXPECT_FALSE(openMPRuntimeLoaded());

  Status loaded = loadOpenMPRuntime(kOpenMPLibrary);
  if (!loaded.isOk())
    GTEST_SKIP() << "no libomp here: " << loaded.message();
  EXPECT_TRUE(openMPRuntimeLoaded());
  // The count asked for before: a graph's first compiled segment loads
  // libomp after the executor set its count, and runs right away.
  EXPECT_EQ(currentThreadCount(), 11);
  EXPECT_TRUE(setThreadCount(7));
  EXPECT_EQ(currentThreadCount(), 7);
  EXPECT_TRUE(setThreadCount(13));
  EXPECT_EQ(currentThreadCount(), 13);
  // Another thread has a count of its own (libomp's default there), and
  // setting it there leaves this thread's alone.
  int seen = 0, after = 0;
  std::thread other([&] {
    seen = currentThreadCount();
    setThreadCount(5);
    after = currentThreadCount();
  });
  other.join();
  EXPECT_NE(seen, 13);
  EXPECT_EQ(after, 5);
  EXPECT_EQ(currentThreadCount(), 13);
  // 0 is the default count.
  setenv("OMP_NUM_THREADS", "3", 1);
  EXPECT_TRUE(setThreadCount(0));
  EXPECT_EQ(currentThreadCount(), 3);
  unsetenv("OMP_NUM_THREADS");
}

} // namespace
