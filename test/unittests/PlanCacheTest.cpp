//===- PlanCacheTest.cpp - The executor's persistent plan cache -----------===//
//
// Executors with ExecutorOptions::planCacheDirectory set, standing in for
// separate processes: the first compiles a plan into the cache, a second
// with the same graph and spec loads it (and gets the same values, its own
// weights bound), another spec, another graph or other weights' sizes
// compile anew, a
// graph that needs the interpreter is recorded as such and still runs, its
// segments' plans are saved and loaded by the next process (a changed
// segment or a corrupt entry compiled again), as is its specialized graph,
// and the size bound evicts the least recently used plan.
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtils.h"

#include "tsir/Executor/Executor.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tsir;
using namespace tsir::test;

namespace {

/// A fresh cache directory, removed with the object.
struct CacheDirectory {
  CacheDirectory() {
    llvm::SmallString<128> created;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("plan-cache", created));
    path = std::string(created);
  }
  ~CacheDirectory() { llvm::sys::fs::remove_directories(path); }

  /// The files in the cache whose names end in `suffix`.
  std::vector<std::string> entries(llvm::StringRef suffix) const {
    std::vector<std::string> found;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(path, ec), end; !ec && it != end;
         it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(suffix))
        found.push_back(it->path());
    return found;
  }
  size_t count(llvm::StringRef suffix) const { return entries(suffix).size(); }
  std::string path;
};

/// Options using `cache`, with this build's lib/ (bin/../lib).
ExecutorOptions cached(const CacheDirectory &cache, uint64_t maxBytes = 1 << 30) {
  ExecutorOptions options;
  options.planCacheDirectory = cache.path;
  options.planCacheMaxBytes = maxBytes;
  static int anchor;
  options.libraryDirectory = libraryDirectoryBeside("tsir-unittests", &anchor);
  return options;
}

const char *kWeightedGraph = R"(graph(%x : Float(*)):
  %w : Float(*) = prim::Constant[value=<Tensor>]()
  %y : Tensor = aten::mul(%x, %w)
  return (%y)
)";

ExecutorOptions withWeight(ExecutorOptions options, rt::Tensor weight) {
  options.weights = {{"w", std::move(weight)}};
  return options;
}

TEST(PlanCacheTest, ASecondExecutorLoadsThePlanWithItsOwnWeights) {
  CacheDirectory cache;
  GraphFile file(kWeightedGraph);
  auto first = load(file, withWeight(cached(cache), filled({3}, 2)));
  ASSERT_TRUE(first);
  auto compiled = first->run({filled({3}, 1)});
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  EXPECT_TRUE(first->lastStats().compiled);
  EXPECT_FALSE(first->lastStats().fromPlanCache);
  EXPECT_EQ(elements((*compiled)[0].toTensor()), (std::vector<float>{2, 6, 12}));
  EXPECT_EQ(cache.count(".so"), 1u);

  // Another "process": same graph and spec, other weights of the same size.
  auto second = load(file, withWeight(cached(cache), filled({3}, 10)));
  ASSERT_TRUE(second);
  auto loaded = second->run({filled({3}, 1)});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_TRUE(second->lastStats().fromPlanCache);
  EXPECT_EQ(elements((*loaded)[0].toTensor()), (std::vector<float>{10, 22, 36}));
  // The first executor still reads its own weights.
  auto again = first->run({filled({3}, 1)});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(elements((*again)[0].toTensor()), (std::vector<float>{2, 6, 12}));
  EXPECT_EQ(cache.count(".so"), 1u);
}

TEST(PlanCacheTest, OtherSpecsAndWeightSizesCompileAnew) {
  CacheDirectory cache;
  GraphFile file(kWeightedGraph);
  auto executor = load(file, withWeight(cached(cache), filled({3}, 1)));
  ASSERT_TRUE(executor);
  ASSERT_TRUE(executor->run({filled({3}, 1)}).ok());
  ASSERT_TRUE(executor->run({filled({1}, 1)}).ok()); // broadcasts
  EXPECT_FALSE(executor->lastStats().fromPlanCache);
  EXPECT_EQ(cache.count(".so"), 2u);
  auto wider = load(file, withWeight(cached(cache), filled({4}, 1)));
  ASSERT_TRUE(wider);
  auto outputs = wider->run({filled({4}, 1)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_FALSE(wider->lastStats().fromPlanCache);
  EXPECT_EQ(cache.count(".so"), 3u);
}

TEST(PlanCacheTest, AChangedGraphCompilesAnew) {
  CacheDirectory cache;
  GraphFile multiply(kWeightedGraph);
  auto first = load(multiply, withWeight(cached(cache), filled({3}, 2)));
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->run({filled({3}, 1)}).ok());
  // The same inputs, weights and spec; one op differs.
  GraphFile add(R"(graph(%x : Float(*)):
  %w : Float(*) = prim::Constant[value=<Tensor>]()
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::add(%x, %w, %one)
  return (%y)
)");
  auto second = load(add, withWeight(cached(cache), filled({3}, 2)));
  ASSERT_TRUE(second);
  auto outputs = second->run({filled({3}, 1)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_FALSE(second->lastStats().fromPlanCache);
  EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(cache.count(".so"), 2u);
}

TEST(PlanCacheTest, GraphsTheInterpreterRunsAreRecordedAndStillRun) {
  CacheDirectory cache;
  GraphFile file(R"(graph(%x : Float(3)):
  %s : str = prim::Constant[value="x is"]()
   = prim::Print(%s, %x)
  %y : Tensor = aten::neg(%x)
  return (%y)
)");
  for (int process = 0; process < 2; ++process) {
    auto executor = load(file, cached(cache));
    ASSERT_TRUE(executor);
    testing::internal::CaptureStdout();
    auto outputs = executor->run({filled({3}, 1)});
    testing::internal::GetCapturedStdout();
    ASSERT_TRUE(outputs.ok()) << outputs.status().message();
    EXPECT_FALSE(executor->lastStats().fromPlanCache);
    EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{-1, -2, -3}));
  }
  EXPECT_EQ(cache.count(".so"), 0u);
  EXPECT_EQ(cache.count(".jit"), 1u);
}

/// Two segments around a print, each a plan of its own; `op` combines the
/// first's result with the input.
std::string segmentedGraph(const std::string &op) {
  return R"(graph(%x : Float(*)):
  %s : str = prim::Constant[value="sin is"]()
  %a : Tensor = aten::sin(%x)
   = prim::Print(%s, %a)
  %y : Tensor = aten::)" +
         op + R"((%a, %x)
  return (%y)
)";
}

/// Runs `text` as if read from graph.txt (so that two graphs' locations
/// agree) in an executor caching in `cache`, on 1, 2, 3; returns its
/// output and how many segment plans it loaded.
std::vector<float> runSegmented(const CacheDirectory &cache,
                                const std::string &text, int &loaded) {
  auto executor = GraphExecutor::fromSource(text, "graph.txt", cached(cache));
  EXPECT_TRUE(executor.ok()) << executor.status().message();
  if (!executor.ok())
    return {};
  testing::internal::CaptureStdout();
  auto outputs = (*executor)->run({filled({3}, 1)});
  testing::internal::GetCapturedStdout();
  EXPECT_TRUE(outputs.ok()) << outputs.status().message();
  loaded = (*executor)->lastStats().segmentPlansFromCache;
  return outputs.ok() ? elements((*outputs)[0].toTensor())
                      : std::vector<float>{};
}

std::vector<float> sinTimesX() {
  return {std::sin(1.f) * 1, std::sin(2.f) * 2, std::sin(3.f) * 3};
}

void expectNear(const std::vector<float> &got,
                const std::vector<float> &expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], 1e-5f) << i;
}

std::string contents(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

void overwrite(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << text;
}

/// A first process's run of the segmented graph; `saved` is then its
/// specialized graph's entry, and the result its text.
std::string specializedGraphSaved(const CacheDirectory &cache,
                                  std::string &saved) {
  int loaded = -1;
  runSegmented(cache, segmentedGraph("mul"), loaded);
  std::vector<std::string> found = cache.entries(".mlir");
  EXPECT_EQ(found.size(), 1u);
  saved = found.empty() ? "" : found[0];
  return contents(saved);
}

TEST(PlanCacheTest, SegmentPlansAreLoadedByTheNextProcess) {
  CacheDirectory cache;
  int loaded = -1;
  expectNear(runSegmented(cache, segmentedGraph("mul"), loaded), sinTimesX());
  EXPECT_EQ(loaded, 0);
  EXPECT_EQ(cache.count(".plan"), 2u);
  expectNear(runSegmented(cache, segmentedGraph("mul"), loaded), sinTimesX());
  EXPECT_EQ(loaded, 2);
  EXPECT_EQ(cache.count(".plan"), 2u);
}

TEST(PlanCacheTest, AChangedSegmentCompilesAnew) {
  CacheDirectory cache;
  int loaded = -1;
  runSegmented(cache, segmentedGraph("mul"), loaded);
  // The first segment is the same; the second divides instead.
  std::vector<float> quotient =
      runSegmented(cache, segmentedGraph("div"), loaded);
  EXPECT_EQ(loaded, 1);
  expectNear(quotient,
             {std::sin(1.f) / 1, std::sin(2.f) / 2, std::sin(3.f) / 3});
  EXPECT_EQ(cache.count(".plan"), 3u);
}

TEST(PlanCacheTest, ACorruptSegmentPlanIsCompiledAgain) {
  CacheDirectory cache;
  int loaded = -1;
  runSegmented(cache, segmentedGraph("mul"), loaded);
  // One entry cut short, the other with a byte changed near its end.
  std::vector<std::string> plans = cache.entries(".plan");
  ASSERT_EQ(plans.size(), 2u);
  std::string cut = contents(plans[0]);
  overwrite(plans[0], cut.substr(0, cut.size() / 2));
  std::string changed = contents(plans[1]);
  changed[changed.size() - 3] ^= 0x10;
  overwrite(plans[1], changed);
  expectNear(runSegmented(cache, segmentedGraph("mul"), loaded), sinTimesX());
  EXPECT_EQ(loaded, 0);
  // Compiled again and saved whole: the next process loads both.
  expectNear(runSegmented(cache, segmentedGraph("mul"), loaded), sinTimesX());
  EXPECT_EQ(loaded, 2);
}

TEST(PlanCacheTest, TheSpecializedGraphIsLoadedByTheNextProcess) {
  CacheDirectory cache;
  std::string saved;
  std::string text = specializedGraphSaved(cache, saved);
  size_t sin = text.find("aten.sin");
  ASSERT_NE(sin, std::string::npos) << text;
  // The next process runs what the entry says, not a new specialization:
  // an entry changed to take the cosine gives the cosine.
  overwrite(saved, text.replace(sin, 8, "aten.cos"));
  int loaded = -1;
  expectNear(runSegmented(cache, segmentedGraph("mul"), loaded),
             {std::cos(1.f) * 1, std::cos(2.f) * 2, std::cos(3.f) * 3});
}

TEST(PlanCacheTest, ASpecializedGraphThatDoesNotParseIsSpecializedAgain) {
  CacheDirectory cache;
  std::string saved;
  std::string text = specializedGraphSaved(cache, saved);
  overwrite(saved, text.substr(0, text.size() / 2));
  int loaded = -1;
  expectNear(runSegmented(cache, segmentedGraph("mul"), loaded), sinTimesX());
  // Saved whole again.
  EXPECT_EQ(contents(saved), text);
}

TEST(PlanCacheTest, TheBoundEvictsTheLeastRecentlyUsed) {
  CacheDirectory cache;
  GraphFile file(kWeightedGraph);
  // A bound smaller than one library: each store keeps only the newest.
  auto executor = load(file, withWeight(cached(cache, 1), filled({3}, 1)));
  ASSERT_TRUE(executor);
  ASSERT_TRUE(executor->run({filled({3}, 1)}).ok());
  ASSERT_TRUE(executor->run({filled({1}, 1)}).ok());
  EXPECT_EQ(cache.count(".so"), 1u);
  EXPECT_EQ(cache.count(".tmp"), 0u);
  // The survivor is the newest plan: another process loads it.
  auto second = load(file, withWeight(cached(cache, 1), filled({3}, 1)));
  ASSERT_TRUE(second);
  ASSERT_TRUE(second->run({filled({1}, 1)}).ok());
  EXPECT_TRUE(second->lastStats().fromPlanCache);
}

TEST(PlanCacheTest, WithoutTheModelLibrariesThereIsNoCache) {
  CacheDirectory cache;
  ExecutorOptions options = cached(cache);
  options.libraryDirectory = cache.path + "/nowhere";
  GraphFile file(kWeightedGraph);
  auto executor = load(file, withWeight(options, filled({3}, 1)));
  ASSERT_TRUE(executor);
  ASSERT_TRUE(executor->run({filled({3}, 1)}).ok());
  EXPECT_EQ(cache.count(".so"), 0u);
}

} // namespace
