//===- GradientsTest.cpp - The GradientExecutor: outputs and gradients ----===//
//
// Runs small graphs through tsir::GradientExecutor: the gradients of a
// loss and of a non-scalar output with its given gradient, the forward and
// the backward plans cached per spec (a second call compiles nothing), and
// the errors a caller meets in torch's words: an unknown name, an output
// gradient left out for a non-scalar output or of the wrong shape; a loop
// differentiated once specialized (unrolled), per spec.
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtils.h"

#include "tsir/Executor/Gradients.h"

#include <gtest/gtest.h>

using namespace tsir;
using namespace tsir::test;

namespace {

// sum(x * x + 3 * y): d/dx = 2x, d/dy = 3.
const char *kLossGraph = R"(graph(%x : Tensor, %y : Tensor):
  %none : NoneType = prim::Constant()
  %three : int = prim::Constant[value=3]()
  %one : int = prim::Constant[value=1]()
  %square : Tensor = aten::mul(%x, %x)
  %scaled : Tensor = aten::mul(%y, %three)
  %sum : Tensor = aten::add(%square, %scaled, %one)
  %loss : Tensor = aten::sum(%sum, %none)
  return (%loss)
)";

std::unique_ptr<GradientExecutor> differentiate(const char *text,
                                                std::vector<std::string> wrt) {
  auto executor = GradientExecutor::fromSource(text, "graph.txt", wrt);
  EXPECT_TRUE(executor.ok()) << executor.status().message();
  return executor.ok() ? std::move(*executor) : nullptr;
}

TEST(GradientsTest, GradientsOfALoss) {
  auto executor = differentiate(kLossGraph, {"all"});
  ASSERT_TRUE(executor);
  EXPECT_EQ(executor->wrtNames(), (std::vector<std::string>{"x", "y"}));
  auto result = executor->run({filled({2, 2}, 1), filled({2, 2}, 0)});
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->outputs.size(), 1u);
  // x = 1..4, y = 0..3: sum(x^2) + 3 * sum(y) = 30 + 18.
  EXPECT_EQ(elements(result->outputs[0].toTensor()),
            (std::vector<float>{48}));
  ASSERT_EQ(result->gradients.size(), 2u);
  EXPECT_EQ(elements(result->gradients[0]),
            (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(elements(result->gradients[1]),
            (std::vector<float>{3, 3, 3, 3}));
  EXPECT_GT(result->savedBytes, 0u);

  // The same spec again: both plans are reused.
  ASSERT_TRUE(executor->run({filled({2, 2}, 5), filled({2, 2}, 5)}).ok());
  EXPECT_FALSE(executor->forward()->lastStats().compiled);
  EXPECT_FALSE(executor->backward()->lastStats().compiled);
  EXPECT_EQ(executor->forward()->numCachedPlans(), 1u);
  EXPECT_EQ(executor->backward()->numCachedPlans(), 1u);
}

// exp(x), an output of several elements: its gradient is given.
const char *kExpGraph = R"(graph(%x : Tensor):
  %e : Tensor = aten::exp(%x)
  return (%e)
)";

TEST(GradientsTest, AnOutputGradientIsGivenForANonScalarOutput) {
  auto executor = differentiate(kExpGraph, {"x"});
  ASSERT_TRUE(executor);
  rt::Tensor zeros = filled({3}, 0);
  zeros.fill(0.0);
  auto result = executor->run({zeros}, {filled({3}, 1)});
  ASSERT_TRUE(result.ok()) << result.status().message();
  // exp(0) = 1 times the given gradient 1, 2, 3.
  EXPECT_EQ(elements(result->gradients[0]), (std::vector<float>{1, 2, 3}));

  auto missing = executor->run({zeros});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(
                "grad can be implicitly created only for scalar outputs"),
            std::string::npos)
      << missing.status().message();

  auto misshapen = executor->run({zeros}, {filled({2}, 1)});
  ASSERT_FALSE(misshapen.ok());
  EXPECT_NE(misshapen.status().message().find(
                "Mismatch in shape: grad_output[0] has a shape of "
                "torch.Size([2]) and output[0] has a shape of "
                "torch.Size([3])."),
            std::string::npos)
      << misshapen.status().message();
}

TEST(GradientsTest, AnUnknownNameIsAnErrorNamingTheCandidates) {
  auto executor = GradientExecutor::fromSource(kLossGraph, "graph.txt", {"z"});
  ASSERT_FALSE(executor.ok());
  EXPECT_NE(executor.status().message().find(
                "no tensor input or weight named %z to differentiate with "
                "respect to (the graph has %x, %y)"),
            std::string::npos)
      << executor.status().message();
}

// x^5 by a loop of constant trip count nested in another: not
// differentiable as it is (nested loops take no tape yet), but unrolled
// once specialized to the inputs.
const char *kLoopGraph = R"(graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %two : int = prim::Constant[value=2]()
  %true : bool = prim::Constant[value=1]()
  %y : Tensor = prim::Loop(%two, %true, %x)
    block0(%i : int, %acc : Tensor):
      %inner : Tensor = prim::Loop(%two, %true, %acc)
        block0(%j : int, %h : Tensor):
          %next : Tensor = aten::mul(%h, %x)
          -> (%true, %next)
      -> (%true, %inner)
  %loss : Tensor = aten::sum(%y, %none)
  return (%loss)
)";

TEST(GradientsTest, NestedLoopsOfConstantTripCountDifferentiatePerSpec) {
  auto executor = differentiate(kLoopGraph, {"x"});
  ASSERT_TRUE(executor);
  // Nothing differentiated before a call says what the inputs are.
  EXPECT_EQ(executor->forward(), nullptr);
  EXPECT_EQ(executor->wrtNames(), (std::vector<std::string>{"x"}));
  auto result = executor->run({filled({3}, 1)});
  ASSERT_TRUE(result.ok()) << result.status().message();
  // d/dx sum(x^5) = 5x^4 at 1, 2, 3.
  EXPECT_EQ(elements(result->gradients[0]),
            (std::vector<float>{5, 80, 405}));
  GraphExecutor *first = executor->forward();
  ASSERT_NE(first, nullptr);
  // Another spec is differentiated again; the first one's is kept.
  ASSERT_TRUE(executor->run({filled({2, 2}, 1)}).ok());
  EXPECT_NE(executor->forward(), first);
  ASSERT_TRUE(executor->run({filled({3}, 1)}).ok());
  EXPECT_EQ(executor->forward(), first);
  EXPECT_FALSE(first->lastStats().compiled);
}

// A loop whose trip count is data differentiates as it is, from its
// tape: the backward runs as many iterations as the forward did, none
// included.
const char *kDataLoopGraph = R"(graph(%x : Tensor, %n : int):
  %none : NoneType = prim::Constant()
  %true : bool = prim::Constant[value=1]()
  %y : Tensor = prim::Loop(%n, %true, %x)
    block0(%i : int, %acc : Tensor):
      %next : Tensor = aten::mul(%acc, %x)
      -> (%true, %next)
  %loss : Tensor = aten::sum(%y, %none)
  return (%loss)
)";

TEST(GradientsTest, ALoopOfDataTripCountDifferentiatesFromItsTape) {
  auto executor = differentiate(kDataLoopGraph, {"x"});
  ASSERT_TRUE(executor);
  auto thrice = executor->run({filled({3}, 1), rt::Value(int64_t(3))});
  ASSERT_TRUE(thrice.ok()) << thrice.status().message();
  // d/dx sum(x^4) = 4x^3 at 1, 2, 3.
  EXPECT_EQ(elements(thrice->gradients[0]),
            (std::vector<float>{4, 32, 108}));
  auto never = executor->run({filled({3}, 1), rt::Value(int64_t(0))});
  ASSERT_TRUE(never.ok()) << never.status().message();
  EXPECT_EQ(elements(never->gradients[0]), (std::vector<float>{1, 1, 1}));
}

} // namespace

namespace {

// What tsir-compile --grad-wrt compiles: the forward and the backward as
// one graph, taking the inputs and the loss's gradient, returning the loss
// and the gradients, with the values run() gives.
TEST(GradientsTest, JoinedGraph) {
  auto executor = differentiate(kLossGraph, {"all"});
  ASSERT_TRUE(executor);
  auto joined = executor->joined();
  ASSERT_TRUE(joined.ok()) << joined.status().message();
  EXPECT_EQ((*joined)->inputTypes().size(), 3u);
  // The loss's gradient, 2: every gradient doubles.
  auto outputs = (*joined)->run(
      {filled({2, 2}, 1), filled({2, 2}, 0), filled({}, 2)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 3u);
  EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{48}));
  EXPECT_EQ(elements((*outputs)[1].toTensor()),
            (std::vector<float>{4, 8, 12, 16}));
  EXPECT_EQ(elements((*outputs)[2].toTensor()),
            (std::vector<float>{6, 6, 6, 6}));
}

} // namespace
