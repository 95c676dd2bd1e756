//===- ExecutorThreadsTest.cpp - GraphExecutor's thread count -------------===//
//
// The executor's side of threads (docs/lowering.md "Threads"): a plan with
// parallel loops loads libomp, each run sets libomp's team size to
// ExecutorOptions::threads on the calling thread, changing the count
// compiles nothing, and the outputs are the same bits at every count
// (reductions are never split). A bad count is refused when the executor
// is made.
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtils.h"

#include "tsir/Executor/Executor.h"

#include "tsir-runtime/Threads.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <thread>

using namespace tsir;
using namespace tsir::test;

namespace {

// A pointwise op and a row reduction, both large enough to be cut into
// chunks (1M and 512 x 2048 points).
const char *kGraph = R"(graph(%x : Float(512, 2048)):
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %false : bool = prim::Constant[value=0]()
  %dims : int[] = prim::ListConstruct(%one)
  %y : Tensor = aten::sin(%x)
  %s : Tensor = aten::sum(%y, %dims, %false, %none)
  return (%y, %s)
)";

bool sameBits(const rt::Tensor &a, const rt::Tensor &b) {
  return a.sizes() == b.sizes() &&
         std::memcmp(a.contiguous().data(), b.contiguous().data(),
                     a.numel() * sizeof(float)) == 0;
}

TEST(ExecutorThreadsTest, ANegativeCountIsRefused) {
  GraphFile file(kGraph);
  ExecutorOptions options;
  options.threads = -2;
  auto executor = GraphExecutor::fromFile(file.path, options);
  ASSERT_FALSE(executor.ok());
  EXPECT_EQ(executor.status().message(),
            "the thread count must be at least 1 (0 for the default), not -2");
}

TEST(ExecutorThreadsTest, EachRunSetsTheCountAndResultsDoNotDependOnIt) {
  GraphFile file(kGraph);
  ExecutorOptions options;
  options.threads = 2;
  auto executor = load(file, options);
  ASSERT_TRUE(executor);
  rt::Tensor x = filled({512, 2048}, -1000);
  auto two = executor->run({x});
  ASSERT_TRUE(two.ok()) << two.status().message();
  // The plan has parallel loops: it loaded libomp, and the run asked it
  // for two threads on this thread.
  EXPECT_TRUE(rt::openMPRuntimeLoaded());
  EXPECT_EQ(rt::currentThreadCount(), 2);

  executor->setThreads(1);
  auto one = executor->run({x});
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_FALSE(executor->lastStats().compiled);
  EXPECT_EQ(rt::currentThreadCount(), 1);
  ASSERT_EQ(two->size(), 2u);
  ASSERT_EQ(one->size(), 2u);
  EXPECT_TRUE(sameBits((*two)[0].toTensor(), (*one)[0].toTensor()));
  EXPECT_TRUE(sameBits((*two)[1].toTensor(), (*one)[1].toTensor()));
  EXPECT_FLOAT_EQ(elements((*one)[0].toTensor())[5], std::sin(-995.0f));

  // A run from another thread sets that thread's count.
  executor->setThreads(3);
  int seen = 0;
  std::thread other([&] {
    auto three = executor->run({x});
    EXPECT_TRUE(three.ok());
    if (three.ok())
      EXPECT_TRUE(sameBits((*three)[1].toTensor(), (*one)[1].toTensor()));
    seen = rt::currentThreadCount();
  });
  other.join();
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(rt::currentThreadCount(), 1);
}

} // namespace
