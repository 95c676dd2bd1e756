//===- KernelArgumentsTest.cpp - Tests of the typed kernel binder ---------===//
//
// bindKernel (runtime/lib/kernels/KernelArguments.h) turns a C++ function
// into a stack kernel: each argument is read as its parameter's type
// (with torch's leniencies: a bool is an int, an int a Scalar), None is
// an empty optional, a wrong kind is an error naming the argument's
// position, and a tuple result pushes one value per element.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelArguments.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {

/// Describes what it was given, so a test can check every conversion.
StatusOr<std::string> describe(Tensor t, int64_t i, double d, bool b,
                               std::string s, std::vector<int64_t> list,
                               std::optional<int64_t> maybeInt,
                               std::optional<Tensor> maybeTensor, DType dtype) {
  std::string out = std::to_string(t.numel()) + " " + std::to_string(i) + " " +
                    std::to_string(d) + " " + (b ? "true" : "false") + " " + s +
                    " [";
  for (int64_t e : list)
    out += std::to_string(e) + ",";
  out += "] " + (maybeInt ? std::to_string(*maybeInt) : "None") + " " +
         (maybeTensor ? std::to_string(maybeTensor->numel()) : "None") + " " +
         dtypeTorchName(dtype);
  return out;
}

StatusOr<std::tuple<int64_t, int64_t>> divmod(int64_t a, int64_t b) {
  if (b == 0)
    return Status::error("integer division by zero");
  return std::make_tuple(a / b, a % b);
}

Status run(const Kernel &kernel, Stack &stack) { return kernel(stack); }

std::vector<Value> describeArgs() {
  return {makeTensor({1, 2, 3}, {3}, DType::Float32),
          Value(int64_t(7)),
          Value(int64_t(2)),
          Value(true),
          Value("mean"),
          Value::list({Value(int64_t(1)), Value(int64_t(-1))}),
          Value::none(),
          makeTensor({5}, {1}, DType::Int64),
          Value(int64_t(6))};
}

} // namespace

TEST(KernelArgumentsTest, ReadsEachParameterAsItsType) {
  Stack stack = describeArgs();
  ASSERT_TRUE(run(bindKernel(describe), stack).isOk());
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toStringRef(),
            "3 7 2.000000 true mean [1,-1,] None 1 Float");
}

TEST(KernelArgumentsTest, AcceptsTorchsLeniencies) {
  Stack stack = describeArgs();
  stack[1] = Value(true);       // a bool as an int
  stack[3] = Value(int64_t(0)); // an int as a bool
  stack[5] = Value(int64_t(4)); // an int as int[1]
  stack[6] = Value(int64_t(9)); // int? given
  stack[7] = Value::none();     // Tensor? as None
  ASSERT_TRUE(run(bindKernel(describe), stack).isOk());
  EXPECT_EQ(stack[0].toStringRef(),
            "3 1 2.000000 false mean [4,] 9 None Float");
}

TEST(KernelArgumentsTest, WrongKindNamesTheArgument) {
  Stack stack = describeArgs();
  stack[1] = Value("seven");
  Status status = run(bindKernel(describe), stack);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "argument 2 (int): expected int, got str");

  stack = describeArgs();
  stack[0] = Value(1.5);
  status = run(bindKernel(describe), stack);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(),
            "argument 1 (Tensor): expected a Tensor, got float");

  stack = describeArgs();
  stack[8] = Value(int64_t(99));
  status = run(bindKernel(describe), stack);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(),
            "argument 9 (ScalarType): unsupported ScalarType 99");
}

TEST(KernelArgumentsTest, TooFewArgumentsIsAnError) {
  Stack stack = {Value(int64_t(1))};
  Status status = run(bindKernel(divmod), stack);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "kernel expects 2 arguments, the stack holds 1");
}

TEST(KernelArgumentsTest, TupleResultsPushEachElement) {
  Stack stack = {Value(int64_t(17)), Value(int64_t(5))};
  ASSERT_TRUE(run(bindKernel(divmod), stack).isOk());
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[0].toInt(), 3);
  EXPECT_EQ(stack[1].toInt(), 2);
}

TEST(KernelArgumentsTest, TheFunctionsErrorIsReturned) {
  Stack stack = {Value(int64_t(17)), Value(int64_t(0))};
  Status status = run(bindKernel(divmod), stack);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "integer division by zero");
}

TEST(KernelArgumentsTest, ABoundBuiltinKernelReportsThroughTheRegistry) {
  // aten::index_add is bound with bindKernel: its dim must be an int.
  StatusOr<std::vector<Value>> results =
      callKernel("aten::index_add",
                 {makeTensor({1, 2}, {2}, DType::Float32), Value("zero"),
                  makeTensor({0}, {1}, DType::Int64),
                  makeTensor({1}, {1}, DType::Float32), Value(int64_t(1))});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find(
                "argument 2 (int): expected int, got str"),
            std::string::npos)
      << results.status().message();
}

TEST(KernelArgumentsTest, AnUndefinedTensorIsAnAbsentOptionalTensor) {
  // An absent gradient travels as an undefined tensor, as torch's does.
  Stack stack = describeArgs();
  stack[7] = Value(Tensor());
  ASSERT_TRUE(run(bindKernel(describe), stack).isOk());
  EXPECT_EQ(stack[0].toStringRef(),
            "3 7 2.000000 true mean [1,-1,] None None Float");
}
