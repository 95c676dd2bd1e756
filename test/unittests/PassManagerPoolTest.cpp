//===- PassManagerPoolTest.cpp - Tests of the reused lowering pipelines ---===//
//
// Compiles on one context share their pass managers through the pool
// (PassManagerPool.h): a second compile builds no new one, and its plan
// computes what a plan from fresh pass managers computes. A compile that
// instruments its passes (timing) builds its own.
//
//===----------------------------------------------------------------------===//

#include "PassManagerPool.h"
#include "CompilePipeline.h"
#include "Signature.h"

#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace tsir;

constexpr const char *kGraph = R"(graph(%x : Tensor):
  %a : Tensor = aten::sin(%x)
  %b : Tensor = aten::mul(%a, %x)
  return (%b)
)";

struct PoolFixture : ::testing::Test {
  PoolFixture() : context(mlir::MLIRContext::Threading::DISABLED) {
    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    tsir::registerAllDialects(registry);
    mlir::registerBuiltinDialectTranslation(registry);
    mlir::registerLLVMDialectTranslation(registry);
    mlir::registerOpenMPDialectTranslation(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    graph = importTorchScript(kGraph, "pool.txt", &context);
  }

  /// The graph compiled for a float tensor of `sizes`, run on 0.5, 1.5, ...:
  /// each output element is checked against sin(x) * x.
  void compileAndCheck(std::vector<int64_t> sizes, PassManagerPool *pool,
                       CompileProgress *progress = nullptr) {
    rt::Tensor input = rt::Tensor::empty(sizes, rt::DType::Float32);
    for (int64_t i = 0; i < input.numel(); ++i)
      input.dataAs<float>()[i] = 0.5f + float(i);
    std::vector<rt::Value> inputs = {rt::Value(input)};
    CompileOptions options;
    options.spec = GraphInputs(graph->lookupSymbol<mlir::func::FuncOp>("graph"))
                       .refineSpec(inputs);
    options.passManagers = pool;
    options.progress = progress;
    rt::StatusOr<std::unique_ptr<Plan>> plan = compileGraph(*graph, options);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto outputs = (*plan)->call(inputs, {});
    ASSERT_TRUE(outputs.ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 1u);
    rt::Tensor result = (*outputs)[0].toTensor().contiguous();
    ASSERT_EQ(result.numel(), input.numel());
    for (int64_t i = 0; i < input.numel(); ++i) {
      float x = input.dataAs<float>()[i];
      EXPECT_NEAR(result.dataAs<float>()[i], std::sin(x) * x, 1e-4f) << i;
    }
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> graph;
};

TEST_F(PoolFixture, LaterCompilesBuildNoPassManager) {
  ASSERT_TRUE(graph);
  PassManagerPool pool(&context);
  compileAndCheck({4, 5}, &pool);
  unsigned first = pool.built();
  // optimize, lower to linalg, lower to LLVM.
  EXPECT_EQ(first, 3u);
  compileAndCheck({37}, &pool);
  compileAndCheck({2, 3, 7}, &pool);
  EXPECT_EQ(pool.built(), first);
}

TEST_F(PoolFixture, SameResultsWithoutPool) {
  ASSERT_TRUE(graph);
  compileAndCheck({37}, nullptr);
}

TEST_F(PoolFixture, TimedCompileBuildsItsOwn) {
  ASSERT_TRUE(graph);
  PassManagerPool pool(&context);
  compileAndCheck({4, 5}, &pool);
  unsigned before = pool.built();
  {
    CompileProgress timed(nullptr, /*timing=*/true);
    compileAndCheck({6}, &pool, &timed);
  }
  EXPECT_EQ(pool.built(), before);
  // The pool's own pass managers carry no timing: a later compile still
  // takes them, and builds nothing.
  compileAndCheck({6}, &pool);
  EXPECT_EQ(pool.built(), before);
}

TEST(PassManagerPool, GivesBackWhatWasReturnedAndBuildsWhenAllAreOut) {
  mlir::MLIRContext context;
  PassManagerPool pool(&context);
  unsigned builds = 0;
  auto build = [&](mlir::PassManager &) { ++builds; };
  std::unique_ptr<mlir::PassManager> a = pool.take("a", build);
  std::unique_ptr<mlir::PassManager> b = pool.take("a", build);
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(builds, 2u);
  mlir::PassManager *first = a.get();
  pool.giveBack("a", std::move(a));
  std::unique_ptr<mlir::PassManager> again = pool.take("a", build);
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(builds, 2u);
  // Another pipeline never gets it.
  pool.giveBack("a", std::move(again));
  EXPECT_NE(pool.take("b", build).get(), first);
  EXPECT_EQ(builds, 3u);
  EXPECT_EQ(pool.built(), 3u);
}

} // namespace
