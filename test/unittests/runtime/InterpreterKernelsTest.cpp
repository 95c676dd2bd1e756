//===- InterpreterKernelsTest.cpp - Tests of the scalar and view kernels --===//
//
// The kernels tsir's interpreter calls for the ops it runs between
// compiled segments (ScalarKernels, ViewKernels, ConcatKernels), through
// the global registry: TorchScript's scalar semantics (floor division and
// modulo of negatives, wrapping, bools), views that share their base's
// storage, and cat/stack with their torch errors. Expected values are
// torch 1.13's TorchScript interpreter's.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "tsir-runtime/KernelRegistry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {

Value call(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> results = callKernel(name, std::move(inputs));
  EXPECT_TRUE(results.ok()) << name << ": " << results.status().message();
  if (!results.ok() || results->size() != 1)
    return Value();
  return results->front();
}

std::string errorOf(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> results = callKernel(name, std::move(inputs));
  return results.ok() ? "" : results.status().message();
}

TEST(ScalarKernelsTest, IntegerDivisionRoundsTowardNegativeInfinity) {
  EXPECT_EQ(call("aten::floordiv.int", {int64_t(-7), int64_t(2)}).toInt(), -4);
  EXPECT_EQ(call("aten::remainder.int", {int64_t(-7), int64_t(2)}).toInt(), 1);
  EXPECT_EQ(call("aten::remainder.int", {int64_t(7), int64_t(-2)}).toInt(), -1);
  EXPECT_EQ(errorOf("aten::floordiv.int", {int64_t(1), int64_t(0)}),
            "ZeroDivisionError: integer division or modulo by zero");
}

TEST(ScalarKernelsTest, IntsWrapAndMixedOperandsComputeInFloat) {
  int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(call("aten::add.int", {max, int64_t(1)}).toInt(),
            std::numeric_limits<int64_t>::min());
  Value mixed = call("aten::mul.int_float", {int64_t(3), 0.5});
  ASSERT_TRUE(mixed.isDouble());
  EXPECT_EQ(mixed.toDouble(), 1.5);
  // True division is a float even of two ints.
  Value quotient = call("aten::div.int", {int64_t(7), int64_t(2)});
  ASSERT_TRUE(quotient.isDouble());
  EXPECT_EQ(quotient.toDouble(), 3.5);
}

TEST(ScalarKernelsTest, BitwiseOperatorsKeepBools) {
  Value both = call("aten::__and__.bool", {true, false});
  ASSERT_TRUE(both.isBool());
  EXPECT_FALSE(both.toBool());
  EXPECT_EQ(call("aten::__xor__.int", {int64_t(6), int64_t(3)}).toInt(), 5);
}

TEST(ScalarKernelsTest, ComparisonsConversionsAndIdentity) {
  EXPECT_TRUE(call("aten::lt.int_float", {int64_t(1), 1.5}).toBool());
  EXPECT_FALSE(call("aten::eq.float", {std::nan(""), std::nan("")}).toBool());
  EXPECT_EQ(call("aten::Int.float", {-2.7}).toInt(), -2);
  EXPECT_EQ(call("aten::neg.int", {int64_t(5)}).toInt(), -5);
  EXPECT_TRUE(call("aten::__not__", {false}).toBool());
  Value list = Value::list({Value(int64_t(1))});
  EXPECT_TRUE(call("aten::__is__", {list, list}).toBool());
  EXPECT_TRUE(call("aten::__isnot__", {list, Value::list({Value(int64_t(1))})})
                  .toBool());
  EXPECT_TRUE(
      call("aten::eq.int_list", {list, Value::list({Value(int64_t(1))})})
          .toBool());
  EXPECT_EQ(errorOf("aten::add.int", {Value("a"), int64_t(1)}),
            "expected a number, got str");
}

TEST(ViewKernelsTest, ViewsShareTheirBaseStorage) {
  Tensor base = makeTensor({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Float32);
  Value row = call("aten::select.int", {base, int64_t(0), int64_t(1)});
  ASSERT_TRUE(row.isTensor());
  EXPECT_EQ(row.toTensor().sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(valuesOf(row.toTensor()), (std::vector<double>{3, 4, 5}));
  // Writing through the view writes the base.
  Tensor one = makeTensor({9}, {1}, DType::Float32);
  ASSERT_TRUE(row.toTensor().copyFrom(one.expand({3}).value()).isOk());
  EXPECT_EQ(valuesOf(base), (std::vector<double>{0, 1, 2, 9, 9, 9}));

  Value sliced = call("aten::slice.Tensor",
                      {base, int64_t(1), Value(), Value(), int64_t(2)});
  EXPECT_EQ(valuesOf(sliced.toTensor()), (std::vector<double>{0, 2, 9, 9}));
  Value transposed = call("aten::t", {base});
  EXPECT_EQ(transposed.toTensor().sizes(), (std::vector<int64_t>{3, 2}));
}

TEST(ViewKernelsTest, MetadataQueries) {
  Tensor t = makeTensor({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Float32);
  Value sizes = call("aten::size", {t});
  ASSERT_TRUE(sizes.isList());
  EXPECT_EQ(sizes.toList().size(), 2u);
  EXPECT_EQ(call("aten::size.int", {t, int64_t(-1)}).toInt(), 3);
  EXPECT_EQ(call("aten::numel", {t}).toInt(), 6);
  EXPECT_EQ(call("prim::dtype", {t}).toInt(), 6); // torch.float32
  EXPECT_EQ(errorOf("aten::size.int", {t, int64_t(2)}),
            "Dimension out of range (expected to be in range of [-2, 1], but "
            "got 2)");
}

TEST(ConcatKernelsTest, CatPromotesAndStackChecksSizes) {
  Tensor a = makeTensor({1, 2}, {1, 2}, DType::Int64);
  Tensor b = makeTensor({0.5, 1.5}, {1, 2}, DType::Float32);
  Value cat = call("aten::cat", {Value::list({a, b}), int64_t(0)});
  ASSERT_TRUE(cat.isTensor());
  EXPECT_EQ(cat.toTensor().dtype(), DType::Float32);
  EXPECT_EQ(cat.toTensor().sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(valuesOf(cat.toTensor()), (std::vector<double>{1, 2, 0.5, 1.5}));

  Value stacked = call("aten::stack", {Value::list({b, b}), int64_t(1)});
  EXPECT_EQ(stacked.toTensor().sizes(), (std::vector<int64_t>{1, 2, 2}));
  Tensor c = makeTensor({1, 2, 3}, {1, 3}, DType::Float32);
  EXPECT_EQ(errorOf("aten::stack", {Value::list({b, c}), int64_t(0)}),
            "stack expects each tensor to be equal size, but got [1, 2] at "
            "entry 0 and [1, 3] at entry 1");
  EXPECT_EQ(errorOf("aten::cat", {Value::list({}), int64_t(0)}),
            "torch.cat(): expected a non-empty list of Tensors");
}

} // namespace
