//===- DataDependentKernelsTest.cpp - Tests of the data-dependent kernels -===//
//
// Known answers (taken from torch 1.13 on CPU), ties, empty tensors and
// error paths of the builtin kernels in SelectionKernels, ScatterReduce-
// Kernels, GatherKernels, OrderStatisticKernels, ScanKernels and
// CombinatoricKernels, called through the global registry as tsir-run does.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "tsir-runtime/KernelRegistry.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {
const double kNan = std::nan("");

Tensor f32(const std::vector<double> &values, std::vector<int64_t> sizes) {
  return makeTensor(values, std::move(sizes), DType::Float32);
}
Tensor i64(const std::vector<double> &values, std::vector<int64_t> sizes) {
  return makeTensor(values, std::move(sizes), DType::Int64);
}

std::vector<Value> call(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> results = callKernel(name, std::move(inputs));
  EXPECT_TRUE(results.ok()) << name << ": " << results.status().message();
  // On failure, Nones for the results the test reads (it fails on them).
  return results.ok() ? *results : std::vector<Value>(4);
}

std::string errorOf(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> results = callKernel(name, std::move(inputs));
  return results.ok() ? "" : results.status().message();
}

/// Element-wise equality treating NaN as equal to NaN.
void expectValues(const Value &value, const std::vector<double> &expected,
                  const std::vector<int64_t> &sizes, DType dtype) {
  ASSERT_TRUE(value.isTensor());
  const Tensor &t = value.toTensor();
  EXPECT_EQ(t.sizes(), sizes);
  EXPECT_EQ(t.dtype(), dtype);
  std::vector<double> actual = valuesOf(t);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i]))
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i;
    else if (std::isinf(expected[i]))
      EXPECT_EQ(actual[i], expected[i]) << "element " << i;
    else
      EXPECT_NEAR(actual[i], expected[i], 1e-5) << "element " << i;
  }
}
} // namespace

TEST(SelectionKernelsTest, MaskedSelectBroadcastsAndKeepsDtype) {
  Tensor x = i64({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor mask = makeTensor({1, 0, 1}, {3}, DType::Bool);
  std::vector<Value> out = call("aten::masked_select", {x, mask});
  expectValues(out[0], {1, 3, 4, 6}, {4}, DType::Int64);
  out = call("aten::masked_select",
             {f32({}, {0, 3}), makeTensor({1, 1, 1}, {3}, DType::Bool)});
  expectValues(out[0], {}, {0}, DType::Float32);
  EXPECT_EQ(errorOf("aten::masked_select", {x, f32({1, 0, 1}, {3})}),
            "masked_select: expected BoolTensor for mask");
}

TEST(SelectionKernelsTest, ArgwhereAndNonzeroNumpy) {
  Tensor x = f32({0, 2, 0, kNan}, {2, 2});
  expectValues(call("aten::argwhere", {x})[0], {0, 1, 1, 1}, {2, 2},
               DType::Int64);
  std::vector<Value> out = call("aten::nonzero_numpy", {x});
  ASSERT_TRUE(out[0].isList());
  ASSERT_EQ(out[0].toList().size(), 2u);
  expectValues(out[0].toList()[0], {0, 1}, {2}, DType::Int64);
  expectValues(out[0].toList()[1], {1, 1}, {2}, DType::Int64);
  // torch.where(condition) is the same.
  out = call("aten::where", {x});
  ASSERT_TRUE(out[0].isList());
  expectValues(out[0].toList()[1], {1, 1}, {2}, DType::Int64);
  EXPECT_NE(errorOf("aten::where", {x, x, x}), "");
}

TEST(SelectionKernelsTest, UniqueSortedInverseCounts) {
  Tensor x = f32({3, 1, 3, 2}, {2, 2});
  std::vector<Value> out = call("aten::_unique2", {x, true, true, true});
  expectValues(out[0], {1, 2, 3}, {3}, DType::Float32);
  expectValues(out[1], {2, 0, 2, 1}, {2, 2}, DType::Int64);
  expectValues(out[2], {1, 1, 2}, {3}, DType::Int64);
  out = call("aten::_unique2", {x, true, false, false});
  expectValues(out[1], {}, {0}, DType::Int64);
  expectValues(out[2], {}, {0}, DType::Int64);
}

TEST(SelectionKernelsTest, UniqueConsecutive) {
  Tensor x = f32({1, 1, 2, 2, 3, 1}, {6});
  std::vector<Value> out =
      call("aten::unique_consecutive", {x, true, true, Value()});
  expectValues(out[0], {1, 2, 3, 1}, {4}, DType::Float32);
  expectValues(out[1], {0, 0, 1, 1, 2, 3}, {6}, DType::Int64);
  expectValues(out[2], {2, 2, 1, 1}, {4}, DType::Int64);
  // Along a dim, rows equal to their predecessor are dropped.
  Tensor rows = f32({1, 2, 1, 2, 3, 4}, {3, 2});
  out = call("aten::unique_consecutive", {rows, false, false, 0});
  expectValues(out[0], {1, 2, 3, 4}, {2, 2}, DType::Float32);
  expectValues(out[1], {0, 0, 1}, {3}, DType::Int64);
  expectValues(out[2], {2, 1}, {2}, DType::Int64);
}

TEST(SelectionKernelsTest, SearchsortedAndBucketize) {
  Tensor seq = f32({1, 2, 2, 3}, {4});
  Tensor values = f32({2, 0, 5}, {3});
  expectValues(call("aten::searchsorted",
                    {seq, values, false, true, Value(), Value()})[0],
               {3, 0, 4}, {3}, DType::Int64);
  expectValues(call("aten::searchsorted",
                    {seq, values, true, false, Value("right"), Value()})[0],
               {3, 0, 4}, {3}, DType::Int32);
  expectValues(call("aten::bucketize", {values, seq, false, false})[0],
               {1, 0, 4}, {3}, DType::Int64);
  // A scalar input gives a 0-d result; a sorter reorders the sequence.
  expectValues(call("aten::searchsorted",
                    {f32({3, 1, 2}, {3}), 2.5, false, false, Value(),
                     i64({1, 2, 0}, {3})})[0],
               {2}, {}, DType::Int64);
  EXPECT_NE(errorOf("aten::searchsorted",
                    {seq, values, false, true, Value("left"), Value()}),
            "");
  EXPECT_NE(errorOf("aten::searchsorted",
                    {seq, values, false, false, Value(), i64({0, 1, 2, 9}, {4})}),
            "");
}

TEST(SelectionKernelsTest, HistcAndHistogram) {
  Tensor x = f32({1, 2, 1, 4, 5}, {5});
  expectValues(call("aten::histc", {x, 4, 0, 4})[0], {0, 2, 1, 1}, {4},
               DType::Float32);
  // min == max takes the data's range; a constant input widens it by 1.
  expectValues(call("aten::histc", {f32({2, 2}, {2}), 4, 0, 0})[0],
               {0, 0, 2, 0}, {4}, DType::Float32);
  std::vector<Value> out = call(
      "aten::histogram", {f32({2, 2}, {2}), 4, Value(), Value(), false});
  expectValues(out[0], {0, 0, 2, 0}, {4}, DType::Float32);
  expectValues(out[1], {1.5, 1.75, 2, 2.25, 2.5}, {5}, DType::Float32);
  out = call("aten::histogram",
             {x, f32({0, 2, 5}, {3}), Value(), true});
  expectValues(out[0], {0.2, 0.2}, {2}, DType::Float32);
  EXPECT_NE(errorOf("aten::histc", {x, 0, 0, 1}), "");
}

TEST(SelectionKernelsTest, Histogramdd) {
  std::vector<Value> out =
      call("aten::histogramdd",
           {f32({1, 1, 1, 1}, {2, 2}), 2, Value(), Value(), false});
  expectValues(out[0], {0, 0, 0, 2}, {2, 2}, DType::Float32);
  ASSERT_TRUE(out[1].isList());
  ASSERT_EQ(out[1].toList().size(), 2u);
  expectValues(out[1].toList()[1], {0.5, 1, 1.5}, {3}, DType::Float32);
  // Points outside any dim's edges are dropped; density divides by the
  // total and the cell volumes.
  out = call("aten::histogramdd",
             {f32({0.5, 0.5, 1.5, 0.2, 9, 0}, {3, 2}),
              Value::list({f32({0, 1, 2}, {3}), f32({0, 1}, {2})}), Value(),
              Value(), true});
  expectValues(out[0], {0.5, 0.5}, {2, 1}, DType::Float32);
  EXPECT_NE(errorOf("aten::histogramdd", {f32({1, 1}, {1, 2}),
                                          Value::list({2, 2, 2}), Value(),
                                          Value(), false}),
            "");
}

TEST(SelectionKernelsTest, IsinAndCountNonzero) {
  Tensor x = f32({1, kNan, 3, 4}, {2, 2});
  expectValues(call("aten::isin", {x, f32({4, 1, kNan}, {3}), false, false})[0],
               {1, 0, 0, 1}, {2, 2}, DType::Bool);
  expectValues(call("aten::isin", {x, 3, false, true})[0], {1, 1, 0, 1},
               {2, 2}, DType::Bool);
  Tensor y = f32({0, 1, 2, 0, 0, 3}, {2, 3});
  expectValues(call("aten::count_nonzero", {y, Value()})[0], {3}, {},
               DType::Int64);
  expectValues(call("aten::count_nonzero", {y, 0})[0], {0, 1, 2}, {3},
               DType::Int64);
  expectValues(call("aten::count_nonzero", {y, Value::list({0, 1})})[0], {3},
               {}, DType::Int64);
}

TEST(ScatterReduceKernelsTest, ScatterReduceModes) {
  Tensor self = f32({1, 2, 3}, {3});
  Tensor index = i64({0, 0, 2}, {3});
  Tensor src = f32({5, -1, 7}, {3});
  expectValues(call("aten::scatter_reduce.two",
                    {self, 0, index, src, "amax", false})[0],
               {5, 2, 7}, {3}, DType::Float32);
  expectValues(call("aten::scatter_reduce.two",
                    {self, 0, index, src, "mean", true})[0],
               {5.0 / 3, 2, 5}, {3}, DType::Float32);
  expectValues(call("aten::scatter_reduce.two",
                    {self, 0, index, src, "sum", true})[0],
               {5, 2, 10}, {3}, DType::Float32);
  expectValues(call("aten::scatter_reduce.two",
                    {self, 0, index, src, "prod", false})[0],
               {-5, 2, 7}, {3}, DType::Float32);
  // Integral means floor-divide.
  expectValues(call("aten::scatter_reduce.two",
                    {i64({1, 2, 3}, {3}), 0, index, i64({5, -1, 7}, {3}),
                     "mean", true})[0],
               {1, 2, 5}, {3}, DType::Int64);
  EXPECT_EQ(errorOf("aten::scatter_reduce.two",
                    {self, 0, i64({3}, {1}), src, "sum", true}),
            "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_NE(errorOf("aten::scatter_reduce.two",
                    {self, 0, i64({-1}, {1}), src, "sum", true}),
            "");
  EXPECT_NE(errorOf("aten::scatter_reduce.two",
                    {self, 0, index, src, "median", true}),
            "");
}

TEST(ScatterReduceKernelsTest, IndexOps) {
  Tensor self = f32({0, 0, 0, 0, 0, 0}, {3, 2});
  Tensor index = i64({2, 0, 2}, {3});
  Tensor source = f32({1, 2, 3, 4, 5, 6}, {3, 2});
  expectValues(call("aten::index_add", {self, 0, index, source, 2})[0],
               {6, 8, 0, 0, 12, 16}, {3, 2}, DType::Float32);
  expectValues(call("aten::index_reduce",
                    {f32({1, 1, 1, 1, 1, 1}, {3, 2}), 0, index, source,
                     "amax", false})[0],
               {3, 4, 1, 1, 5, 6}, {3, 2}, DType::Float32);
  expectValues(call("aten::index_copy",
                    {self, 0, i64({2, 0, 1}, {3}), source})[0],
               {3, 4, 5, 6, 1, 2}, {3, 2}, DType::Float32);
  // index_fill wraps negative indices; the others do not.
  expectValues(call("aten::index_fill", {self, 1, i64({-1}, {1}), 7.5})[0],
               {0, 7.5, 0, 7.5, 0, 7.5}, {3, 2}, DType::Float32);
  EXPECT_NE(errorOf("aten::index_add", {self, 0, i64({-1, 0, 0}, {3}), source, 1}),
            "");
  EXPECT_NE(errorOf("aten::index_copy", {self, 0, i64({3, 0, 0}, {3}), source}),
            "");
  EXPECT_NE(errorOf("aten::index_fill", {self, 0, i64({3}, {1}), 1.0}), "");
  EXPECT_NE(errorOf("aten::index_add", {self, 0, i64({0, 1}, {2}), source, 1}),
            "");
}

TEST(ScatterReduceKernelsTest, SegmentReduceEmptySegments) {
  Tensor data = f32({1, 2, 3, 4}, {4});
  Tensor lengths = i64({2, 0, 2}, {3});
  auto reduce = [&](const char *op, Value initial) {
    return call("aten::segment_reduce",
                {data, op, lengths, Value(), Value(), 0, false, initial})[0];
  };
  expectValues(reduce("sum", Value()), {3, 0, 7}, {3}, DType::Float32);
  expectValues(reduce("mean", Value()), {1.5, kNan, 3.5}, {3}, DType::Float32);
  expectValues(reduce("max", Value()), {2, -INFINITY, 4}, {3}, DType::Float32);
  expectValues(reduce("mean", 5), {4, 5, 6}, {3}, DType::Float32);
  expectValues(reduce("prod", 5), {10, 5, 60}, {3}, DType::Float32);
  expectValues(call("aten::segment_reduce",
                    {data, "min", Value(), Value(), i64({0, 1, 4}, {3}), 0,
                     false, Value()})[0],
               {1, 2}, {2}, DType::Float32);
  EXPECT_NE(errorOf("aten::segment_reduce",
                    {data, "sum", i64({1, 1}, {2}), Value(), Value(), 0, false,
                     Value()}),
            "");
}

TEST(GatherKernelsTest, TakePutTakeAlongDim) {
  Tensor x = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  expectValues(call("aten::take", {x, i64({0, -1, 4}, {3})})[0], {1, 6, 5},
               {3}, DType::Float32);
  EXPECT_EQ(errorOf("aten::take", {x, i64({6}, {1})}),
            "out of range: tried to access index 6 on a tensor of 6 "
            "elements.");
  expectValues(call("aten::put", {x, i64({0, -1}, {2}), f32({9, 8}, {2}),
                                  false})[0],
               {9, 2, 3, 4, 5, 8}, {2, 3}, DType::Float32);
  expectValues(call("aten::put", {x, i64({0, 0}, {2}), f32({9, 8}, {2}),
                                  true})[0],
               {18, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32);
  expectValues(call("aten::take_along_dim", {x, i64({2, 0}, {2, 1}), 1})[0],
               {3, 4}, {2, 1}, DType::Float32);
  expectValues(call("aten::take_along_dim", {x, i64({5, 0}, {2}), Value()})[0],
               {6, 1}, {2}, DType::Float32);
  EXPECT_NE(errorOf("aten::take_along_dim", {x, i64({3, 0}, {2, 1}), 1}), "");
}

TEST(GatherKernelsTest, MaskedScatterAndUnpool) {
  Tensor x = f32({0, 0, 0, 0}, {2, 2});
  Tensor mask = makeTensor({0, 1}, {2}, DType::Bool);
  expectValues(call("aten::masked_scatter", {x, mask, f32({7, 8, 9}, {3})})[0],
               {0, 7, 0, 8}, {2, 2}, DType::Float32);
  EXPECT_NE(errorOf("aten::masked_scatter", {x, mask, f32({7}, {1})}), "");
  Tensor pooled = f32({5, 6}, {1, 1, 2});
  expectValues(call("aten::max_unpool2d",
                    {pooled, i64({1, 2}, {1, 1, 2}), Value::list({1, 4})})[0],
               {0, 5, 6, 0}, {1, 1, 4}, DType::Float32);
  EXPECT_EQ(errorOf("aten::max_unpool2d",
                    {pooled, i64({1, 4}, {1, 1, 2}), Value::list({1, 4})}),
            "Found an invalid max index: 4 (output volumes are of size 1x4)");
}

TEST(GatherKernelsTest, EmbeddingBagModes) {
  Tensor weight = f32({1, 2, 3, 4, 5, 6}, {3, 2});
  Tensor indices = i64({0, 2, 1}, {3});
  Tensor offsets = i64({0, 2, 3}, {3});
  auto bag = [&](int mode, Value padding) {
    return call("aten::embedding_bag", {weight, indices, offsets, false, mode,
                                        false, Value(), false, padding});
  };
  expectValues(bag(0, Value())[0], {6, 8, 3, 4, 0, 0}, {3, 2}, DType::Float32);
  expectValues(bag(1, Value())[0], {3, 4, 3, 4, 0, 0}, {3, 2}, DType::Float32);
  std::vector<Value> out = bag(2, Value());
  expectValues(out[0], {5, 6, 3, 4, 0, 0}, {3, 2}, DType::Float32);
  expectValues(out[3], {2, 2, 1, 1, 0, 0}, {3, 2}, DType::Int64);
  expectValues(bag(0, -1)[0], {1, 2, 3, 4, 0, 0}, {3, 2}, DType::Float32);
  EXPECT_NE(errorOf("aten::embedding_bag",
                    {weight, i64({3}, {1}), i64({0}, {1}), false, 0, false,
                     Value(), false, Value()}),
            "");
}

TEST(GatherKernelsTest, EmbeddingRenormInPlace) {
  Tensor weight = f32({3, 4, 0.1, 0}, {2, 2});
  std::vector<Value> out =
      call("aten::embedding_renorm_", {weight, i64({0, 0, 1}, {3}), 1.0, 2.0});
  expectValues(out[0], {0.6, 0.8, 0.1, 0}, {2, 2}, DType::Float32);
  // The rows change in place.
  EXPECT_NEAR(valuesOf(weight)[0], 0.6, 1e-5);
  EXPECT_NE(errorOf("aten::embedding_renorm_",
                    {weight, i64({2}, {1}), 1.0, 2.0}),
            "");
}

TEST(OrderStatisticKernelsTest, MedianModeKthvalueTies) {
  Tensor x = f32({2, 1, 2, 3, 1, 2, 5, 5, 4, 4, kNan, 1}, {2, 6});
  std::vector<Value> out = call("aten::median", {x, 1, false});
  expectValues(out[0], {2, kNan}, {2}, DType::Float32);
  expectValues(out[1], {0, 4}, {2}, DType::Int64);
  out = call("aten::nanmedian", {x, 1, false});
  expectValues(out[0], {2, 4}, {2}, DType::Float32);
  expectValues(out[1], {0, 3}, {2}, DType::Int64);
  out = call("aten::mode", {x, 1, false});
  expectValues(out[0], {2, 4}, {2}, DType::Float32);
  expectValues(out[1], {5, 3}, {2}, DType::Int64);
  out = call("aten::kthvalue", {x, 2, 1, true});
  expectValues(out[0], {1, 4}, {2, 1}, DType::Float32);
  expectValues(out[1], {4, 3}, {2, 1}, DType::Int64);
  out = call("aten::kthvalue", {x, 3, 1, false});
  expectValues(out[1], {2, 2}, {2}, DType::Int64);
  Tensor y = f32({1, 3, 2, 3, 1, 1, 3}, {7});
  expectValues(call("aten::mode", {y, -1, false})[1], {5}, {}, DType::Int64);
  expectValues(call("aten::kthvalue", {y, 4, -1, false})[1], {2}, {},
               DType::Int64);
  expectValues(call("aten::median", {y})[0], {2}, {}, DType::Float32);
  expectValues(call("aten::median", {x})[0], {kNan}, {}, DType::Float32);
  expectValues(call("aten::nanmedian", {f32({kNan, kNan}, {2})})[0], {kNan},
               {}, DType::Float32);
  EXPECT_EQ(errorOf("aten::kthvalue", {y, 8, -1, false}),
            "kthvalue(): selected number k out of range for dimension 0");
  EXPECT_NE(errorOf("aten::median", {f32({}, {0, 2}), 0, false}), "");
}

TEST(OrderStatisticKernelsTest, Quantile) {
  Tensor x = f32({0, 1, 2, 3, 4, kNan, 6, 7}, {2, 4});
  expectValues(call("aten::quantile", {x, f32({0.25, 0.5}, {2}), 1, true,
                                       "linear"})[0],
               {0.75, kNan, 1.5, kNan}, {2, 2, 1}, DType::Float32);
  expectValues(call("aten::nanquantile", {x, 0.4, 1, false, "nearest"})[0],
               {1, 6}, {2}, DType::Float32);
  expectValues(call("aten::quantile", {f32({1, 2, 3, 4}, {2, 2}), 0.5, Value(),
                                       true, "midpoint"})[0],
               {2.5}, {1, 1}, DType::Float32);
  EXPECT_EQ(errorOf("aten::quantile", {x, 1.5, Value(), false, "linear"}),
            "quantile() q values must be in the range [0, 1]");
  EXPECT_NE(errorOf("aten::quantile", {x, 0.5, Value(), false, "cubic"}), "");
  EXPECT_NE(errorOf("aten::quantile", {i64({1}, {1}), 0.5, Value(), false,
                                       "linear"}),
            "");
}

TEST(ScanKernelsTest, CumulativeOps) {
  std::vector<Value> out =
      call("aten::cummax", {f32({1, 3, 3, kNan, 2, kNan}, {6}), 0});
  expectValues(out[0], {1, 3, 3, kNan, kNan, kNan}, {6}, DType::Float32);
  expectValues(out[1], {0, 1, 2, 3, 3, 5}, {6}, DType::Int64);
  out = call("aten::cummin", {f32({3, 1, 1, 2}, {4}), 0});
  expectValues(out[1], {0, 1, 2, 2}, {4}, DType::Int64);
  expectValues(call("aten::cumprod", {i64({1, 2, 3, 4}, {2, 2}), 1, Value()})[0],
               {1, 2, 3, 12}, {2, 2}, DType::Int64);
  expectValues(call("aten::logcumsumexp", {f32({0, -INFINITY, 1}, {3}), 0})[0],
               {0, 0, std::log(1 + std::exp(1.0))}, {3}, DType::Float32);
  expectValues(call("aten::cumprod", {f32({}, {0}), 0, Value()})[0], {}, {0},
               DType::Float32);
}

TEST(ScanKernelsTest, DiffAndTrapezoid) {
  expectValues(call("aten::diff", {i64({1, 4, 9, 16}, {4}), 2, -1, Value(),
                                   Value()})[0],
               {2, 2}, {2}, DType::Int64);
  expectValues(call("aten::diff", {makeTensor({1, 0, 0}, {3}, DType::Bool), 1,
                                   0, Value(), Value()})[0],
               {1, 0}, {2}, DType::Bool);
  expectValues(call("aten::diff", {f32({1, 2}, {2}), 1, 0, f32({0}, {1}),
                                   f32({5}, {1})})[0],
               {1, 1, 3}, {3}, DType::Float32);
  expectValues(call("aten::diff", {f32({1, 2}, {2}), 5, 0, Value(), Value()})[0],
               {}, {0}, DType::Float32);
  EXPECT_NE(errorOf("aten::diff", {f32({1}, {}), 1, 0, Value(), Value()}), "");
  expectValues(call("aten::trapezoid", {f32({1, 2, 4}, {3}), f32({0, 1, 3}, {3}),
                                        -1})[0],
               {7.5}, {}, DType::Float32);
  expectValues(call("aten::trapz", {f32({1, 2, 4}, {3}), 2.0, -1})[0], {9}, {},
               DType::Float32);
  expectValues(call("aten::cumulative_trapezoid", {f32({1, 2, 4}, {3}), 2, -1})[0],
               {3, 9}, {2}, DType::Float32);
  expectValues(call("aten::trapezoid", {f32({}, {2, 0}), 1, 1})[0], {0, 0}, {2},
               DType::Float32);
}

TEST(CombinatoricKernelsTest, CombinationsAndProducts) {
  expectValues(call("aten::combinations", {i64({1, 2, 3}, {3}), 2, true})[0],
               {1, 1, 1, 2, 1, 3, 2, 2, 2, 3, 3, 3}, {6, 2}, DType::Int64);
  expectValues(call("aten::combinations", {f32({1, 2, 3}, {3}), 2, false})[0],
               {1, 2, 1, 3, 2, 3}, {3, 2}, DType::Float32);
  expectValues(call("aten::combinations", {f32({1, 2}, {2}), 3, false})[0], {},
               {0, 3}, DType::Float32);
  expectValues(call("aten::combinations", {f32({1, 2}, {2}), 0, false})[0], {},
               {0}, DType::Float32);
  expectValues(call("aten::cartesian_prod",
                    {Value::list({f32({1, 2}, {2}), f32({3, 4, 5}, {3})})})[0],
               {1, 3, 1, 4, 1, 5, 2, 3, 2, 4, 2, 5}, {6, 2}, DType::Float32);
  expectValues(call("aten::repeat_interleave", {i64({1, 0, 2}, {3}), Value()})[0],
               {0, 2, 2}, {3}, DType::Int64);
  expectValues(call("aten::repeat_interleave",
                    {f32({1, 2, 3, 4}, {2, 2}), i64({2, 1}, {2}), 0, Value()})[0],
               {1, 2, 1, 2, 3, 4}, {3, 2}, DType::Float32);
  expectValues(call("aten::repeat_interleave",
                    {f32({1, 2}, {2}), 2, Value(), Value()})[0],
               {1, 1, 2, 2}, {4}, DType::Float32);
  EXPECT_EQ(errorOf("aten::repeat_interleave",
                    {f32({1, 2}, {2}), -1, Value(), Value()}),
            "repeats can not be negative");
}

TEST(CombinatoricKernelsTest, RandomShapes) {
  std::vector<Value> out = call("aten::multinomial",
                                {f32({0, 1, 1, 2, 0, 3}, {2, 3}), 2, false,
                                 Value()});
  ASSERT_TRUE(out[0].isTensor());
  EXPECT_EQ(out[0].toTensor().sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(out[0].toTensor().dtype(), DType::Int64);
  // Row 0 has two possible categories, 1 and 2, drawn without repeats.
  std::vector<double> picks = valuesOf(out[0].toTensor());
  EXPECT_NE(picks[0], picks[1]);
  EXPECT_NE(picks[0], 0);
  EXPECT_NE(errorOf("aten::multinomial",
                    {f32({0, 1, 1, 0, 2, 0}, {2, 3}), 3, false, Value()}),
            "");
  out = call("aten::normal", {f32({0, 0, 0}, {3}), 1.0, Value()});
  EXPECT_EQ(out[0].toTensor().sizes(), (std::vector<int64_t>{3}));
  out = call("aten::normal", {1.0, 2.0, Value::list({2, 2}), Value(), Value(),
                              Value(), Value(), Value()});
  EXPECT_EQ(out[0].toTensor().sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(out[0].toTensor().dtype(), DType::Float32);
  EXPECT_NE(errorOf("aten::normal", {f32({0}, {1}), -1.0, Value()}), "");
}
