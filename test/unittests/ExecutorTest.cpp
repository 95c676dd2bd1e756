//===- ExecutorTest.cpp - The GraphExecutor: plans, inputs, outputs -------===//
//
// Runs small graphs through tsir::GraphExecutor and checks what callers
// rely on: a plan per argument spec (reused for the same spec, a new one
// for new sizes), input errors that name the input, in-place writes to
// inputs reaching the caller's tensors, outputs that are tensors of their
// own, a missing weight named; and the segmented path for graphs with ops
// only a runtime kernel runs (kernels called by name, segment plans cached
// per input spec, ops nothing runs reported before anything runs).
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtils.h"

#include "tsir/Executor/Executor.h"

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Stack.h"

#include <gtest/gtest.h>

using namespace tsir;
using namespace tsir::test;

namespace {

const char *kAddGraph = R"(graph(%x : Float(*, *), %y : Float(*, *)):
  %one : int = prim::Constant[value=1]()
  %z : Tensor = aten::add(%x, %y, %one)
  return (%z)
)";

TEST(ExecutorTest, CachesOnePlanPerSpec) {
  GraphFile file(kAddGraph);
  auto executor = load(file);
  ASSERT_TRUE(executor);
  std::vector<rt::Value> inputs = {filled({2, 3}, 0), filled({2, 3}, 10)};
  auto first = executor->run(inputs);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_TRUE(executor->lastStats().compiled);
  EXPECT_EQ(executor->lastStats().spec, "Float(2, 3), Float(2, 3)");
  EXPECT_EQ(executor->numCachedPlans(), 1u);
  EXPECT_EQ(elements((*first)[0].toTensor()),
            (std::vector<float>{10, 12, 14, 16, 18, 20}));

  // The same spec with other values: the plan is reused.
  auto second = executor->run({filled({2, 3}, 1), filled({2, 3}, 1)});
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_FALSE(executor->lastStats().compiled);
  EXPECT_EQ(executor->numCachedPlans(), 1u);
  EXPECT_EQ(elements((*second)[0].toTensor()),
            (std::vector<float>{2, 4, 6, 8, 10, 12}));
}

TEST(ExecutorTest, NewSizesCompileANewPlan) {
  GraphFile file(kAddGraph);
  auto executor = load(file);
  ASSERT_TRUE(executor);
  ASSERT_TRUE(executor->run({filled({2, 3}, 0), filled({2, 3}, 0)}).ok());
  auto other = executor->run({filled({4, 1}, 0), filled({4, 1}, 1)});
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_TRUE(executor->lastStats().compiled);
  EXPECT_EQ(executor->lastStats().spec, "Float(4, 1), Float(4, 1)");
  EXPECT_EQ(executor->numCachedPlans(), 2u);
  EXPECT_EQ((*other)[0].toTensor().sizes(), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(elements((*other)[0].toTensor()), (std::vector<float>{1, 3, 5, 7}));
  // Back to the first spec: cached.
  ASSERT_TRUE(executor->run({filled({2, 3}, 0), filled({2, 3}, 0)}).ok());
  EXPECT_FALSE(executor->lastStats().compiled);
  EXPECT_EQ(executor->numCachedPlans(), 2u);
}

TEST(ExecutorTest, BadInputsNameTheInput) {
  GraphFile file(kAddGraph);
  auto executor = load(file);
  ASSERT_TRUE(executor);
  auto count = executor->run({filled({2, 3}, 0)});
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.status().message(),
            "the graph takes 2 inputs (%x : Float(*, *), %y : Float(*, *)) "
            "but 1 was given");

  rt::Tensor longs = rt::Tensor::zeros({2, 3}, rt::DType::Int64);
  auto dtype = executor->run({filled({2, 3}, 0), longs});
  ASSERT_FALSE(dtype.ok());
  EXPECT_NE(dtype.status().message().find("input 1 (%y"), std::string::npos)
      << dtype.status().message();
  EXPECT_NE(dtype.status().message().find("must be a Float tensor"),
            std::string::npos);

  auto rank = executor->run({filled({2, 3, 4}, 0), filled({2, 3}, 0)});
  ASSERT_FALSE(rank.ok());
  EXPECT_NE(rank.status().message().find("input 0 (%x"), std::string::npos)
      << rank.status().message();
  EXPECT_NE(rank.status().message().find("rank 2"), std::string::npos);

  // An undefined tensor (found by executor-fuzzer: it reached compiled
  // code, which read through its null storage).
  auto undefined = executor->run({filled({2, 3}, 0), rt::Tensor()});
  ASSERT_FALSE(undefined.ok());
  EXPECT_EQ(undefined.status().message(),
            "input 1 (%y : Float(*, *)) must be a defined tensor, got an "
            "undefined tensor");
  EXPECT_EQ(executor->numCachedPlans(), 0u);
}

// Containers are checked element by element, and an undefined tensor
// inside one is caught before compiled code reads it.
TEST(ExecutorTest, ContainerInputsAreCheckedElementByElement) {
  GraphFile file(R"(graph(%l : int[], %t : (Tensor, float), %s : str):
  %n : int = aten::len(%l)
  %t0 : Tensor, %f : float = prim::TupleUnpack(%t)
  %m : Tensor = aten::mul(%t0, %f)
  %r : (Tensor, int, str) = prim::TupleConstruct(%m, %n, %s)
  return (%r)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  auto run = [&](std::vector<rt::Value> inputs) {
    auto result = executor->run(inputs);
    return result.ok() ? std::string("ok") : result.status().message();
  };
  rt::Value pair = rt::Value::tuple({filled({2}, 1), 2.0});
  EXPECT_EQ(run({rt::Value::list({1, 2}), pair, "s"}), "ok");
  EXPECT_EQ(run({rt::Value::list({1, 2.5}), pair, "s"}),
            "input 0 (%l : int[]) must be a list whose element 1 is an int, "
            "got List");
  EXPECT_EQ(run({rt::Value::list({}), rt::Value::tuple({filled({2}, 1)}),
                 "s"}),
            "input 1 (%t : (Tensor, float)) must be a tuple of 2 elements, "
            "got Tuple");
  EXPECT_EQ(run({rt::Value::list({}), rt::Value::tuple({rt::Tensor(), 2.0}),
                 "s"}),
            "input 1 (%t : (Tensor, float)) must be a tuple whose element 0 "
            "is a defined tensor, got Tuple");
  EXPECT_EQ(run({rt::Value::list({}), pair, 3}),
            "input 2 (%s : str) must be a str, got int 3");
}

TEST(ExecutorTest, InPlaceWritesReachTheCaller) {
  GraphFile file(R"(graph(%x : Float(3), %y : Float(3)):
  %one : int = prim::Constant[value=1]()
  %x.1 : Tensor = aten::add_(%x, %y, %one)
  %z : Tensor = aten::mul(%x.1, %y)
  return (%z)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  rt::Tensor x = filled({3}, 1), y = filled({3}, 10);
  auto outputs = executor->run({x, y});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_EQ(elements(x), (std::vector<float>{11, 13, 15}));
  EXPECT_EQ(elements(y), (std::vector<float>{10, 11, 12}));
  EXPECT_EQ(elements((*outputs)[0].toTensor()),
            (std::vector<float>{110, 143, 180}));
}

TEST(ExecutorTest, OutputsDoNotAliasInputs) {
  GraphFile file(R"(graph(%x : Float(2, 2)):
  %t : (Tensor, Tensor) = prim::TupleConstruct(%x, %x)
  return (%t)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  rt::Tensor x = filled({2, 2}, 0);
  auto outputs = executor->run({x});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 2u);
  for (const rt::Value &output : *outputs) {
    EXPECT_FALSE(output.toTensor().sharesStorageWith(x));
    EXPECT_EQ(elements(output.toTensor()), elements(x));
  }
  // Writing an output leaves the input as it was.
  (*outputs)[0].toTensor().fill(7);
  EXPECT_EQ(elements(x), (std::vector<float>{0, 1, 2, 3}));
}

TEST(ExecutorTest, InputsThatStartInsideTheirStorageAreReadThere) {
  // Rows of a larger tensor: contiguous, but at a storage offset, which the
  // code compiled for identity layouts does not read (it once read row 0).
  GraphFile file(kAddGraph);
  auto executor = load(file);
  ASSERT_TRUE(executor);
  rt::Tensor base = filled({3, 1, 2}, 0);
  auto x = base.select(0, 1);
  auto y = base.select(0, 2);
  ASSERT_TRUE(x.ok() && y.ok());
  ASSERT_TRUE(x->isContiguous());
  ASSERT_NE(x->storageOffset(), 0);
  auto outputs = executor->run({*x, *y});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{6, 8}));
}

TEST(ExecutorTest, AMissingWeightIsNamed) {
  GraphFile file(R"(graph(%x : Float(3)):
  %fc.weight : Float(3) = prim::Constant[value=<Tensor>]()
  %y : Tensor = aten::mul(%x, %fc.weight)
  return (%y)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  auto outputs = executor->run({filled({3}, 0)});
  ASSERT_FALSE(outputs.ok());
  EXPECT_NE(outputs.status().message().find("weight 'fc.weight' is missing"),
            std::string::npos)
      << outputs.status().message();
}

/// SSD's warn-once: an attribute forward reads and then sets, which
/// freezing keeps as module state.
const char *kWarnOnce = R"(graph(%self : __torch__.M,
      %x : Float(3)):
  %one : int = prim::Constant[value=1]()
  %true : bool = prim::Constant[value=1]()
  %warned : bool = prim::GetAttr[name="_has_warned"](%self)
  %y : Tensor = prim::If(%warned)
    block0():
      -> (%x)
    block1():
       = prim::SetAttr[name="_has_warned"](%self, %true)
      %z : Tensor = aten::add(%x, %one, %one)
      -> (%z)
  return (%y)
)";

TEST(ExecutorTest, ModuleStateLastsBetweenCalls) {
  GraphFile file(kWarnOnce);
  ExecutorOptions options;
  rt::Tensor notWarned = rt::Tensor::empty({}, rt::DType::Bool);
  *notWarned.dataAs<uint8_t>() = 0;
  options.weights.push_back({"self._has_warned", notWarned});
  auto executor = load(file, options);
  ASSERT_TRUE(executor);
  auto first = executor->run({filled({3}, 0)});
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(elements((*first)[0].toTensor()), (std::vector<float>{1, 2, 3}));
  // The first call set the attribute: the second takes the other branch.
  auto second = executor->run({filled({3}, 0)});
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(elements((*second)[0].toTensor()), (std::vector<float>{0, 1, 2}));
}

TEST(ExecutorTest, ModuleStateWithoutAValueIsNamed) {
  GraphFile file(kWarnOnce);
  auto executor = load(file);
  ASSERT_TRUE(executor);
  auto outputs = executor->run({filled({3}, 0)});
  ASSERT_FALSE(outputs.ok());
  EXPECT_NE(outputs.status().message().find(
                "reads the module attribute 'self._has_warned', which "
                "freezing kept because forward writes it"),
            std::string::npos)
      << outputs.status().message();
}

/// `tsir_test::twice` (x * 2), registered once in the global registry.
void registerTwice() {
  static bool registered = [] {
    rt::Status status = rt::KernelRegistry::global().registerKernel(
        "tsir_test::twice", [](rt::Stack &stack) -> rt::Status {
          TSIR_RT_ASSIGN_OR_RETURN(rt::Tensor x, rt::popTensor(stack));
          rt::Tensor result = x.clone();
          for (int64_t i = 0; i < result.numel(); ++i)
            result.dataAs<float>()[i] *= 2;
          rt::push(stack, result);
          return rt::Status::ok();
        });
    EXPECT_TRUE(status.isOk()) << status.message();
    return true;
  }();
  (void)registered;
}

TEST(ExecutorTest, RunsKernelOpsBetweenCompiledSegments) {
  registerTwice();
  GraphFile file(R"(graph(%x : Float(*)):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %x, %one)
  %b : Tensor = tsir_test::twice(%a)
  %c : Tensor = aten::sub(%b, %x, %one)
  return (%c)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  auto outputs = executor->run({filled({3}, 1)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_TRUE(executor->lastStats().compiled);
  EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{3, 6, 9}));
  // The segments' plans are cached too: nothing compiles the second time.
  outputs = executor->run({filled({3}, 2)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_FALSE(executor->lastStats().compiled);
  EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{6, 9, 12}));
  // New sizes: a new plan.
  outputs = executor->run({filled({2}, 0)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_TRUE(executor->lastStats().compiled);
  EXPECT_EQ(executor->numCachedPlans(), 2u);
  EXPECT_EQ(elements((*outputs)[0].toTensor()), (std::vector<float>{0, 3}));
}

TEST(ExecutorTest, ListsAreSharedAndKernelErrorsLocated) {
  GraphFile file(R"(graph(%x : Float(2), %n : int, %index : int):
  %true : bool = prim::Constant[value=1]()
  %l : Tensor[] = prim::ListConstruct()
   = prim::Loop(%n, %true)
    block0(%i : int):
      %l.1 : Tensor[] = aten::append(%l, %x)
      -> (%true)
  %k : int = aten::len(%l)
  %item : Tensor = aten::__getitem__(%l, %index)
  %r : (int, Tensor) = prim::TupleConstruct(%k, %item)
  return (%r)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  rt::Tensor x = filled({2}, 5);
  // append through the loop's alias of %l shows in len(%l).
  auto outputs = executor->run({x, int64_t(3), int64_t(2)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 2u);
  EXPECT_EQ((*outputs)[0].toInt(), 3);
  EXPECT_EQ(elements((*outputs)[1].toTensor()), (std::vector<float>{5, 6}));
  EXPECT_FALSE((*outputs)[1].toTensor().sharesStorageWith(x));
  // An index out of range: the kernel's error, at the op's line.
  outputs = executor->run({x, int64_t(3), int64_t(3)});
  ASSERT_FALSE(outputs.ok());
  EXPECT_NE(outputs.status().message().find(":9:"), std::string::npos)
      << outputs.status().message();
  EXPECT_NE(outputs.status().message().find("out of range"), std::string::npos)
      << outputs.status().message();
}

TEST(ExecutorTest, OpsNothingRunsAreReportedBeforeRunning) {
  registerTwice();
  GraphFile file(R"(graph(%x : Float(3)):
  %msg : str = prim::Constant[value="before"]()
   = prim::Print(%msg)
  %b : Tensor = tsir_test::twice(%x)
  %c : Tensor = tsir_test::nothing_registered(%b)
  return (%c)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  testing::internal::CaptureStdout();
  auto outputs = executor->run({filled({3}, 0)});
  std::string printed = testing::internal::GetCapturedStdout();
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(printed, "");
  EXPECT_NE(outputs.status().message().find(
                ":5:17: error: no lowering and no runtime kernel for "
                "tsir_test::nothing_registered (load one with --load-ops)"),
            std::string::npos)
      << outputs.status().message();
}

} // namespace
