//===- SelectionKernels.cpp - Builtin kernels whose output size is data ---===//
//
// Ops whose result shape depends on the values (masked_select, argwhere,
// nonzero_numpy, _unique2, unique_consecutive) and the binning and lookup
// ops that tsir has no compiled form for (searchsorted, bucketize, histc,
// histogram, histogramdd, bincount, isin, count_nonzero). They run in the
// interpreter as torch's CPU kernels do: element moves are byte-exact,
// comparisons and counting go through Float64 copies (binning through the
// input's float type, to land on the same bins), and indices are int64.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace tsir::rt {

using namespace data;

namespace {

/// Row-major multi-indices of the nonzero elements, flattened.
std::vector<int64_t> nonzeroIndices(const Tensor &self, int64_t &count) {
  std::vector<double> values = toDoubles(self);
  int64_t dims = self.dim();
  const std::vector<int64_t> &sizes = self.sizes();
  std::vector<int64_t> indices, index(dims, 0);
  count = 0;
  for (double v : values) {
    if (v != 0.0) {
      indices.insert(indices.end(), index.begin(), index.end());
      ++count;
    }
    for (int64_t d = dims - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  return indices;
}

StatusOr<Tensor> argwhere(Tensor self) {
  int64_t count = 0;
  std::vector<int64_t> indices = nonzeroIndices(self, count);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromInt64s(indices, {count, self.dim()}));
  return result;
}

StatusOr<Value> nonzeroNumpy(Tensor self) {
  // A 0-d tensor is treated as 1-d, as torch.nonzero(as_tuple=True) does.
  if (self.dim() == 0) {
    TSIR_RT_ASSIGN_OR_RETURN(self, self.reshape({1}));
  }
  int64_t count = 0;
  std::vector<int64_t> indices = nonzeroIndices(self, count);
  int64_t dims = self.dim();
  std::vector<Value> tensors;
  for (int64_t d = 0; d < dims; ++d) {
    std::vector<int64_t> column(count);
    for (int64_t i = 0; i < count; ++i)
      column[i] = indices[i * dims + d];
    TSIR_RT_ASSIGN_OR_RETURN(Tensor t, fromInt64s(column, {count}));
    tensors.push_back(std::move(t));
  }
  return Value::list(std::move(tensors));
}

StatusOr<Tensor> maskedSelect(Tensor self, Tensor mask) {
  if (mask.dtype() != DType::Bool && mask.dtype() != DType::UInt8)
    return Status::error("masked_select: expected BoolTensor for mask");
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           broadcastSizes(self.sizes(), mask.sizes()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor selfExpanded, self.expand(shape));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor maskExpanded, mask.expand(shape));
  Tensor values = selfExpanded.contiguous();
  Tensor flags = maskExpanded.to(DType::Bool);
  const uint8_t *m = flags.dataAs<uint8_t>();
  int64_t n = flags.numel(), count = 0;
  for (int64_t i = 0; i < n; ++i)
    count += m[i] != 0;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           Tensor::tryEmpty({count}, self.dtype()));
  size_t size = self.elementSize();
  const char *src = static_cast<const char *>(values.data());
  char *dst = static_cast<char *>(result.data());
  for (int64_t i = 0; i < n; ++i)
    if (m[i]) {
      std::memcpy(dst, src + i * size, size);
      dst += size;
    }
  return result;
}

/// Orders values ascending with NaNs last (NaNs never compare equal).
bool lessNanLast(double a, double b) {
  if (isNan(a))
    return false;
  if (isNan(b))
    return true;
  return a < b;
}

StatusOr<std::tuple<Tensor, Tensor, Tensor>>
unique2(Tensor self, bool sorted, bool returnInverse, bool returnCounts) {
  // sorted=False gives torch's hash-set order, which nothing promises; the
  // values come out sorted either way.
  (void)sorted;
  std::vector<double> values = toDoubles(self);
  int64_t n = static_cast<int64_t>(values.size());
  std::vector<int64_t> order(n);
  for (int64_t i = 0; i < n; ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (lessNanLast(values[a], values[b]))
      return true;
    return !lessNanLast(values[b], values[a]) && a < b;
  });
  std::vector<double> uniques;
  std::vector<int64_t> inverse(n), counts;
  for (int64_t k = 0; k < n; ++k) {
    double v = values[order[k]];
    if (uniques.empty() || isNan(v) || v != uniques.back()) {
      uniques.push_back(v);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[order[k]] = static_cast<int64_t>(uniques.size()) - 1;
  }
  int64_t u = static_cast<int64_t>(uniques.size());
  TSIR_RT_ASSIGN_OR_RETURN(Tensor output,
                           fromDoubles(uniques, {u}, self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor inverseTensor,
      returnInverse ? fromInt64s(inverse, self.sizes()) : fromInt64s({}, {0}));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor countsTensor,
      returnCounts ? fromInt64s(counts, {u}) : fromInt64s({}, {0}));
  return std::make_tuple(output, inverseTensor, countsTensor);
}

StatusOr<std::tuple<Tensor, Tensor, Tensor>>
uniqueConsecutive(Tensor self, bool returnInverse, bool returnCounts,
                  std::optional<int64_t> dimArg) {
  std::vector<double> values = toDoubles(self);
  if (!dimArg) {
    int64_t n = static_cast<int64_t>(values.size());
    std::vector<double> uniques;
    std::vector<int64_t> inverse(n), counts;
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || values[i] != values[i - 1]) {
        uniques.push_back(values[i]);
        counts.push_back(0);
      }
      ++counts.back();
      inverse[i] = static_cast<int64_t>(uniques.size()) - 1;
    }
    int64_t u = static_cast<int64_t>(uniques.size());
    TSIR_RT_ASSIGN_OR_RETURN(Tensor output,
                             fromDoubles(uniques, {u}, self.dtype()));
    TSIR_RT_ASSIGN_OR_RETURN(Tensor inverseTensor,
                             returnInverse ? fromInt64s(inverse, self.sizes())
                                           : fromInt64s({}, {0}));
    TSIR_RT_ASSIGN_OR_RETURN(
        Tensor countsTensor,
        returnCounts ? fromInt64s(counts, {u}) : fromInt64s({}, {0}));
    return std::make_tuple(output, inverseTensor, countsTensor);
  }
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(*dimArg, self.dim()));
  if (self.dim() == 0)
    return Status::error("unique_consecutive: a 0-d tensor has no dim to "
                         "deduplicate along");
  DimSplit s = splitAt(self.sizes(), dim);
  auto sliceEqual = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t i = 0; i < s.inner; ++i)
        if (values[(o * s.size + a) * s.inner + i] !=
            values[(o * s.size + b) * s.inner + i])
          return false;
    return true;
  };
  std::vector<int64_t> kept, inverse(s.size), counts;
  for (int64_t k = 0; k < s.size; ++k) {
    if (k == 0 || !sliceEqual(k, kept.back())) {
      kept.push_back(k);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[k] = static_cast<int64_t>(kept.size()) - 1;
  }
  int64_t u = static_cast<int64_t>(kept.size());
  std::vector<int64_t> outSizes = self.sizes();
  outSizes[dim] = u;
  Tensor contiguous = self.contiguous();
  TSIR_RT_ASSIGN_OR_RETURN(Tensor output,
                           Tensor::tryEmpty(outSizes, self.dtype()));
  size_t row = s.inner * self.elementSize();
  const char *src = static_cast<const char *>(contiguous.data());
  char *dst = static_cast<char *>(output.data());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t k = 0; k < u; ++k)
      if (row)
        std::memcpy(dst + (o * u + k) * row, src + (o * s.size + kept[k]) * row,
                    row);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor inverseTensor, fromInt64s(inverse, {s.size}));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor countsTensor, fromInt64s(counts, {u}));
  return std::make_tuple(output, inverseTensor, countsTensor);
}

/// torch's cus_lower_bound / cus_upper_bound over `len` values read
/// through `at(i)`.
template <class At>
int64_t boundary(int64_t len, double value, bool right, At at) {
  int64_t start = 0, end = len;
  while (start < end) {
    int64_t mid = start + ((end - start) >> 1);
    double midValue = at(mid);
    bool goRight = right ? !(midValue > value) : !(midValue >= value);
    if (goRight)
      start = mid + 1;
    else
      end = mid;
  }
  return start;
}

/// searchsorted(sorted_sequence, self, *, out_int32, right, side, sorter):
/// `self` is a Tensor or a Scalar (the overloads torch tells apart).
StatusOr<Tensor> searchsorted(Tensor sortedSequence, Value selfArg,
                              bool outInt32, bool right,
                              std::optional<std::string> side,
                              std::optional<Tensor> sorterArg) {
  bool scalarInput = !selfArg.isTensor();
  Tensor self;
  if (scalarInput) {
    TSIR_RT_ASSIGN_OR_RETURN(double v, scalarArg(selfArg, "self"));
    self = Tensor::scalar(v, DType::Float64);
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(self, requireTensor(selfArg));
  }
  if (side) {
    if (*side != "left" && *side != "right")
      return Status::error("torch.searchsorted(): side can only be 'left' or "
                           "'right' but got " +
                           *side);
    if (*side == "left" && right)
      return Status::error("torch.searchsorted(): side and right can't be set "
                           "to opposites, got side of left while right was "
                           "True");
    right = *side == "right";
  }
  Tensor sorter = sorterArg.value_or(Tensor());
  if (sortedSequence.dim() == 0)
    return Status::error("torch.searchsorted(): boundaries tensor should have "
                         "positive dimension, but got 0 dimension");
  int64_t len = sortedSequence.size(-1);
  int64_t rows = len == 0 ? 0 : sortedSequence.numel() / len;
  bool oneD = sortedSequence.dim() == 1;
  if (!oneD) {
    std::vector<int64_t> a(sortedSequence.sizes().begin(),
                           sortedSequence.sizes().end() - 1);
    std::vector<int64_t> b;
    if (self.dim() > 0)
      b.assign(self.sizes().begin(), self.sizes().end() - 1);
    if (self.dim() != sortedSequence.dim() || a != b)
      return Status::error(
          "torch.searchsorted(): boundaries tensor should be 1 dimension or "
          "the first N-1 dimensions of boundaries tensor and input value "
          "tensor must match, but we got boundaries tensor " +
          sizesToString(sortedSequence.sizes()) + " and input value tensor " +
          sizesToString(self.sizes()));
  }
  std::vector<int64_t> order;
  if (sorter.defined()) {
    if (sorter.sizes() != sortedSequence.sizes())
      return Status::error("torch.searchsorted(): boundary and sorter must "
                           "have the same size, but got boundary tensor " +
                           sizesToString(sortedSequence.sizes()) +
                           "and got sorter tensor " +
                           sizesToString(sorter.sizes()));
    if (sorter.dtype() != DType::Int64)
      return Status::error("torch.searchsorted(): sorter must be a tensor of "
                           "long dtype");
    order = toInt64s(sorter);
    for (int64_t i : order)
      if (i < 0 || i >= len)
        return Status::error("torch.searchsorted(): sorter index out of range");
  }
  std::vector<double> seq = toDoubles(sortedSequence), values = toDoubles(self);
  int64_t n = static_cast<int64_t>(values.size());
  int64_t perRow = oneD || rows == 0 ? n : n / rows;
  std::vector<int64_t> result(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t base = oneD || perRow == 0 ? 0 : (i / perRow) * len;
    result[i] = boundary(len, values[i], right, [&](int64_t k) {
      return order.empty() ? seq[base + k] : seq[base + order[base + k]];
    });
  }
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor out,
      fromInt64s(result, self.sizes(), outInt32 ? DType::Int32 : DType::Int64));
  return out;
}

/// bucketize(self, boundaries, *, out_int32, right): `self` is a Tensor or
/// a Scalar (the overloads torch tells apart).
StatusOr<Tensor> bucketize(Value selfArg, Tensor boundaries, bool outInt32,
                           bool right) {
  Tensor self;
  if (selfArg.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(self, requireTensor(selfArg));
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(double v, scalarArg(selfArg, "self"));
    self = Tensor::scalar(v, DType::Float64);
  }
  if (boundaries.dim() != 1)
    return Status::error("bucketize only supports 1-D boundaries tensor, but "
                         "got boundaries tensor of dimension " +
                         std::to_string(boundaries.dim()));
  std::vector<double> seq = toDoubles(boundaries), values = toDoubles(self);
  int64_t len = static_cast<int64_t>(seq.size());
  std::vector<int64_t> result(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    result[i] =
        boundary(len, values[i], right, [&](int64_t k) { return seq[k]; });
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor out,
      fromInt64s(result, self.sizes(), outInt32 ? DType::Int32 : DType::Int64));
  return out;
}

/// torch's linspace in T (the first half counts up from start, the second
/// down from end).
template <class T> std::vector<T> linspace(T start, T end, int64_t steps) {
  std::vector<T> result(steps);
  if (steps == 1) {
    result[0] = start;
    return result;
  }
  T step = (end - start) / static_cast<T>(steps - 1);
  int64_t halfway = steps / 2;
  for (int64_t i = 0; i < steps; ++i)
    result[i] = i < halfway ? start + step * static_cast<T>(i)
                            : end - step * static_cast<T>(steps - i - 1);
  return result;
}

/// torch's histogramdd kernel for one dimension, in T. `linear` finds the
/// bin by interpolation (with `localSearch` to correct it against the
/// edges), else by binary search.
template <class T>
std::vector<T> histogramCore(const std::vector<T> &x, const std::vector<T> &w,
                             const std::vector<T> &edges, bool linear,
                             bool localSearch) {
  int64_t numEdges = static_cast<int64_t>(edges.size());
  std::vector<T> hist(numEdges - 1, T(0));
  T left = edges.front(), right = edges.back();
  for (size_t i = 0; i < x.size(); ++i) {
    T elt = x[i];
    if (!(elt >= left && elt <= right))
      continue;
    int64_t pos;
    if (linear) {
      pos = static_cast<int64_t>((elt - left) * static_cast<T>(numEdges - 1) /
                                 (right - left));
      if (localSearch) {
        int64_t lo = std::max<int64_t>(0, pos - 1);
        int64_t hi = std::min<int64_t>(pos + 2, numEdges);
        pos = std::upper_bound(edges.begin() + lo, edges.begin() + hi, elt) -
              edges.begin() - 1;
      }
    } else {
      pos = std::upper_bound(edges.begin(), edges.end(), elt) - edges.begin() -
            1;
    }
    if (pos == numEdges - 1)
      pos -= 1;
    hist[pos] += w.empty() ? T(1) : w[i];
  }
  return hist;
}

template <class T> std::vector<T> valuesAs(const Tensor &t) {
  if constexpr (std::is_same_v<T, float>) {
    Tensor f = t.to(DType::Float32);
    const float *p = f.dataAs<float>();
    return std::vector<float>(p, p + f.numel());
  } else {
    return toDoubles(t);
  }
}

template <class T>
StatusOr<Tensor> tensorOf(const std::vector<T> &values,
                          std::vector<int64_t> sizes, DType dtype) {
  std::vector<double> d(values.begin(), values.end());
  return fromDoubles(d, sizes, dtype);
}

/// bincount(self, weights=None, minlength=0): how often each value of a
/// 1-d tensor of non-negative integers occurs (or the sum of its
/// weights), at least minlength bins; Long counts, Float sums of Float
/// weights, Double sums of any other.
StatusOr<Tensor> bincount(Tensor self, std::optional<Tensor> weightsArg,
                          int64_t minlength) {
  Tensor weights = weightsArg.value_or(Tensor());
  if (minlength < 0)
    return Status::error("minlength should be >= 0");
  std::vector<int64_t> values;
  if (self.dim() == 1 && isIntegral(self.dtype()) &&
      self.dtype() != DType::Bool)
    values = toInt64s(self);
  bool valid = self.dim() == 1 && isIntegral(self.dtype()) &&
               self.dtype() != DType::Bool &&
               std::all_of(values.begin(), values.end(),
                           [](int64_t v) { return v >= 0; });
  if (!valid)
    return Status::error("bincount only supports 1-d non-negative integral "
                         "inputs.");
  if (weights.defined() &&
      (weights.dim() != 1 || weights.size(0) != self.size(0)))
    return Status::error("weights should be 1-d and have the same length as "
                         "input");
  int64_t bins = minlength;
  for (int64_t v : values)
    bins = std::max(bins, v + 1);
  if (!weights.defined()) {
    std::vector<int64_t> counts(bins, 0);
    for (int64_t v : values)
      ++counts[v];
    TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromInt64s(counts, {bins}));
    return result;
  }
  std::vector<double> w = toDoubles(weights), sums(bins, 0.0);
  for (size_t i = 0; i < values.size(); ++i)
    sums[values[i]] += w[i];
  DType dtype =
      weights.dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromDoubles(sums, {bins}, dtype));
  return result;
}

template <class T>
StatusOr<Tensor> histcTyped(const Tensor &self, int64_t bins, double minV,
                            double maxV) {
  std::vector<T> x = valuesAs<T>(self);
  T left = static_cast<T>(minV), right = static_cast<T>(maxV);
  if (left == right && !x.empty()) {
    left = *std::min_element(x.begin(), x.end(), lessNanLast);
    right = *std::max_element(x.begin(), x.end(), lessNanLast);
  }
  if (left == right) {
    left -= 1;
    right += 1;
  }
  if (!std::isfinite(left) || !std::isfinite(right))
    return Status::error("torch.histc: range of [" + formatDouble(left) +
                         ", " + formatDouble(right) + "] is not finite");
  std::vector<T> edges = linspace<T>(left, right, bins + 1);
  std::vector<T> hist = histogramCore<T>(x, {}, edges, true, false);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, tensorOf(hist, {bins}, self.dtype()));
  return out;
}

StatusOr<Tensor> histc(Tensor self, int64_t bins, double min, double max) {
  if (bins <= 0)
    return Status::error("torch.histc(): bins must be > 0, but got " +
                         std::to_string(bins) + " for dimension 0");
  if (!isFloating(self.dtype()))
    return Status::error(std::string("\"histogram_cpu\" not implemented for '") +
                         dtypeTorchName(self.dtype()) + "'");
  if (min > max)
    return Status::error("torch.histc: max must be larger than min");
  if (self.dtype() == DType::Float32)
    return histcTyped<float>(self, bins, min, max);
  return histcTyped<double>(self, bins, min, max);
}

template <class T>
StatusOr<std::tuple<Tensor, Tensor>>
histogramTyped(const Tensor &self, const Tensor &binsTensor, int64_t binCount,
               const std::vector<double> &range, const Tensor &weight,
               bool density) {
  std::vector<T> x = valuesAs<T>(self);
  std::vector<T> w;
  if (weight.defined()) {
    if (weight.sizes() != self.sizes())
      return Status::error("torch.histogram: if weight tensor is provided it "
                           "should have the same shape as the input tensor "
                           "excluding its innermost dimension");
    w = valuesAs<T>(weight);
  }
  std::vector<T> edges;
  bool linear = !binsTensor.defined();
  if (linear) {
    T left = 0, right = 0;
    if (!range.empty()) {
      left = static_cast<T>(range[0]);
      right = static_cast<T>(range[1]);
    } else if (!x.empty()) {
      left = *std::min_element(x.begin(), x.end(), lessNanLast);
      right = *std::max_element(x.begin(), x.end(), lessNanLast);
    }
    if (!(left <= right))
      return Status::error("torch.histogram(): min should not exceed max, "
                           "but got min " + formatDouble(left) + " max " +
                           formatDouble(right) + " for dimension 0");
    if (!std::isfinite(left) || !std::isfinite(right))
      return Status::error("torch.histogram(): range of [" +
                           formatDouble(left) + ", " + formatDouble(right) +
                           "] is not finite");
    if (left == right) {
      left -= 0.5;
      right += 0.5;
    }
    edges = linspace<T>(left, right, binCount + 1);
  } else {
    if (binsTensor.dim() != 1 || binsTensor.numel() == 0)
      return Status::error("torch.histogram(): bins tensor should have one "
                           "dimension and at least 1 entry");
    // Like torch 1.13, unsorted edges are not diagnosed.
    edges = valuesAs<T>(binsTensor);
  }
  std::vector<T> hist = histogramCore<T>(x, w, edges, linear, linear);
  if (density) {
    T total = 0;
    for (T h : hist)
      total += h;
    for (size_t i = 0; i < hist.size(); ++i)
      hist[i] = hist[i] / (total * (edges[i + 1] - edges[i]));
  }
  int64_t bins = static_cast<int64_t>(hist.size());
  TSIR_RT_ASSIGN_OR_RETURN(Tensor histTensor,
                           tensorOf(hist, {bins}, self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor edgeTensor,
                           tensorOf(edges, {bins + 1}, self.dtype()));
  return std::make_tuple(histTensor, edgeTensor);
}

/// histogram by edges (`bins`) or by a count of equal bins in `range`:
/// (hist, bin_edges).
StatusOr<std::tuple<Tensor, Tensor>>
histogramOf(const Tensor &self, const Tensor &bins, int64_t binCount,
            const std::vector<double> &range,
            const std::optional<Tensor> &weight, bool density) {
  if (!isFloating(self.dtype()))
    return Status::error(std::string("\"histogramdd\" not implemented for '") +
                         dtypeTorchName(self.dtype()) + "'");
  Tensor weights = weight.value_or(Tensor());
  if (self.dtype() == DType::Float32)
    return histogramTyped<float>(self, bins, binCount, range, weights, density);
  return histogramTyped<double>(self, bins, binCount, range, weights, density);
}

/// histogram.bins_tensor(self, bins, *, weight, density).
StatusOr<std::tuple<Tensor, Tensor>>
histogramByEdges(Tensor self, Tensor bins, std::optional<Tensor> weight,
                 bool density) {
  return histogramOf(self, bins, 0, {}, weight, density);
}

/// histogram.bin_ct(self, bins, *, range, weight, density).
StatusOr<std::tuple<Tensor, Tensor>>
histogramByCount(Tensor self, int64_t binCount, const Value &rangeArg,
                 std::optional<Tensor> weight, bool density) {
  if (binCount <= 0)
    return Status::error("torch.histogram(): bins must be > 0, but got " +
                         std::to_string(binCount) + " for dimension 0");
  std::vector<double> range;
  if (!rangeArg.isNone()) {
    if (!rangeArg.isList() || rangeArg.toList().size() != 2)
      return Status::error("torch.histogram(): range should have 2 "
                           "elements");
    for (const Value &v : rangeArg.toList()) {
      TSIR_RT_ASSIGN_OR_RETURN(double d, scalarArg(v, "range"));
      range.push_back(d);
    }
  }
  return histogramOf(self, Tensor(), binCount, range, weight, density);
}

/// torch.histogramdd: `self` holds points of D coordinates in its last
/// dim; each coordinate is binned as histogram does, points outside any
/// dim's range are dropped.
template <class T>
StatusOr<std::tuple<Tensor, Value>>
histogramddTyped(const Tensor &self, const std::vector<int64_t> &binCounts,
                 const std::vector<Tensor> &binTensors,
                 const std::vector<double> &range, const Tensor &weight,
                 bool density) {
  int64_t dims = self.dim() == 0 ? 1 : self.size(-1);
  int64_t points = dims == 0 ? 0 : self.numel() / dims;
  std::vector<T> x = valuesAs<T>(self), w;
  if (weight.defined()) {
    if (weight.numel() != points)
      return Status::error("torch.histogramdd(): if weight tensor is provided "
                           "it should have the same shape as the input tensor "
                           "excluding its innermost dimension");
    w = valuesAs<T>(weight);
  }
  bool linear = binTensors.empty();
  if (static_cast<int64_t>(linear ? binCounts.size() : binTensors.size()) !=
      dims)
    return Status::error("torch.histogramdd(): expected " +
                         std::to_string(dims) + " sequences of bin edges or "
                         "bin counts, one for each dimension");
  if (!range.empty() && static_cast<int64_t>(range.size()) != 2 * dims)
    return Status::error("torch.histogramdd(): for a " + std::to_string(dims) +
                         "-dimensional histogram range should have " +
                         std::to_string(2 * dims) + " elements");
  std::vector<std::vector<T>> edges(dims);
  std::vector<int64_t> histSizes(dims);
  for (int64_t d = 0; d < dims; ++d) {
    if (linear) {
      if (binCounts[d] <= 0)
        return Status::error("torch.histogramdd(): bins must be > 0, but got " +
                             std::to_string(binCounts[d]) + " for dimension " +
                             std::to_string(d));
      double left = 0, right = 0;
      if (!range.empty()) {
        left = range[2 * d];
        right = range[2 * d + 1];
      } else if (points > 0) {
        left = INFINITY;
        right = -INFINITY;
        for (int64_t p = 0; p < points; ++p) {
          T v = x[p * dims + d];
          if (isNan(v))
            continue;
          left = std::min<double>(left, v);
          right = std::max<double>(right, v);
        }
      }
      if (!std::isfinite(left) || !std::isfinite(right))
        return Status::error("torch.histogramdd(): range of [" +
                             formatDouble(left) + ", " + formatDouble(right) +
                             "] is not finite");
      if (!(left <= right))
        return Status::error("torch.histogramdd(): min should not exceed max");
      if (left == right) {
        left -= 0.5;
        right += 0.5;
      }
      edges[d] = linspace<T>(static_cast<T>(left), static_cast<T>(right),
                             binCounts[d] + 1);
    } else {
      if (binTensors[d].dim() != 1 || binTensors[d].numel() == 0)
        return Status::error("torch.histogramdd(): bins tensor should have "
                             "one dimension and at least 1 entry");
      edges[d] = valuesAs<T>(binTensors[d]);
    }
    histSizes[d] = static_cast<int64_t>(edges[d].size()) - 1;
  }
  std::vector<int64_t> strides = contiguousStrides(histSizes);
  int64_t cells = 1;
  for (int64_t s : histSizes)
    cells *= s;
  std::vector<T> hist(cells, T(0));
  for (int64_t p = 0; p < points; ++p) {
    int64_t at = 0;
    bool inside = true;
    for (int64_t d = 0; d < dims && inside; ++d) {
      const std::vector<T> &e = edges[d];
      int64_t numEdges = static_cast<int64_t>(e.size());
      T elt = x[p * dims + d], left = e.front(), right = e.back();
      if (!(elt >= left && elt <= right)) {
        inside = false;
        break;
      }
      int64_t pos;
      if (linear) {
        pos = static_cast<int64_t>((elt - left) *
                                   static_cast<T>(numEdges - 1) /
                                   (right - left));
        int64_t lo = std::max<int64_t>(0, pos - 1);
        int64_t hi = std::min<int64_t>(pos + 2, numEdges);
        pos = std::upper_bound(e.begin() + lo, e.begin() + hi, elt) -
              e.begin() - 1;
      } else {
        pos = std::upper_bound(e.begin(), e.end(), elt) - e.begin() - 1;
      }
      if (pos == numEdges - 1)
        pos -= 1;
      at += pos * strides[d];
    }
    if (inside)
      hist[at] += w.empty() ? T(1) : w[p];
  }
  if (density) {
    T total = 0;
    for (T h : hist)
      total += h;
    for (T &h : hist)
      h /= total;
    std::vector<int64_t> index(dims, 0);
    for (int64_t c = 0; c < cells; ++c) {
      for (int64_t d = 0; d < dims; ++d)
        hist[c] /= edges[d][index[d] + 1] - edges[d][index[d]];
      for (int64_t d = dims - 1; d >= 0; --d) {
        if (++index[d] < histSizes[d])
          break;
        index[d] = 0;
      }
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor histTensor,
                           tensorOf(hist, histSizes, self.dtype()));
  std::vector<Value> edgeTensors;
  for (int64_t d = 0; d < dims; ++d) {
    TSIR_RT_ASSIGN_OR_RETURN(
        Tensor t, tensorOf(edges[d], {histSizes[d] + 1}, self.dtype()));
    edgeTensors.push_back(std::move(t));
  }
  return std::make_tuple(histTensor, Value::list(std::move(edgeTensors)));
}

/// histogramdd(self, bins, range, weight, density): `bins` is an int, an
/// int[] or a Tensor[] (the overloads torch tells apart).
StatusOr<std::tuple<Tensor, Value>> histogramdd(Tensor self, Value bins,
                                                Value range,
                                                std::optional<Tensor> weight,
                                                bool density) {
  if (!isFloating(self.dtype()))
    return Status::error(std::string("\"histogramdd\" not implemented for '") +
                         dtypeTorchName(self.dtype()) + "'");
  if (self.dim() < 1)
    return Status::error("torch.histogramdd(): input tensor should have at "
                         "least 1 dimension");
  int64_t dims = self.size(-1);
  std::vector<int64_t> binCounts;
  std::vector<Tensor> binTensors;
  if (bins.isInt()) {
    binCounts.assign(dims, bins.toInt());
  } else if (bins.isList() && !bins.toList().empty() &&
             bins.toList()[0].isTensor()) {
    for (const Value &v : bins.toList()) {
      TSIR_RT_ASSIGN_OR_RETURN(Tensor t, requireTensor(v));
      binTensors.push_back(t);
    }
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(binCounts, intList(bins, "bins"));
  }
  std::vector<double> rangeValues;
  if (!range.isNone()) {
    if (!range.isList())
      return Status::error("torch.histogramdd(): expected float[] range");
    for (const Value &v : range.toList()) {
      TSIR_RT_ASSIGN_OR_RETURN(double d, scalarArg(v, "range"));
      rangeValues.push_back(d);
    }
  }
  Tensor weightTensor = weight.value_or(Tensor());
  if (self.dtype() == DType::Float32)
    return histogramddTyped<float>(self, binCounts, binTensors, rangeValues,
                                   weightTensor, density);
  return histogramddTyped<double>(self, binCounts, binTensors, rangeValues,
                                  weightTensor, density);
}

/// isin(elements, test_elements, *, assume_unique, invert): either of the
/// first two may be a Scalar (element, test_element) instead of a Tensor
/// (the overloads torch tells apart).
StatusOr<Tensor> isin(Value elementsArg, Value testElements, bool assumeUnique,
                      bool invert) {
  // assume_unique is a hint torch may ignore; the result is the same.
  (void)assumeUnique;
  Tensor elements, test;
  if (elementsArg.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(elements, requireTensor(elementsArg));
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(double v, scalarArg(elementsArg, "element"));
    elements = Tensor::scalar(v, DType::Float64);
  }
  if (testElements.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(test, requireTensor(testElements));
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(double v, scalarArg(testElements, "test_element"));
    test = Tensor::scalar(v, DType::Float64);
  }
  std::vector<double> sorted = toDoubles(test);
  std::sort(sorted.begin(), sorted.end(), lessNanLast);
  std::vector<double> values = toDoubles(elements);
  std::vector<double> result(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    bool found = !isNan(values[i]) &&
                 std::binary_search(sorted.begin(), sorted.end(), values[i],
                                    lessNanLast);
    result[i] = found != invert ? 1.0 : 0.0;
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out,
                           fromDoubles(result, elements.sizes(), DType::Bool));
  return out;
}

/// count_nonzero(self, dim): `dim` is an int[] or an int? (the overloads
/// torch tells apart; an int is a list of one).
StatusOr<Tensor> countNonzero(Tensor self,
                              std::optional<std::vector<int64_t>> dim) {
  int64_t rank = self.dim();
  std::vector<bool> reduce(rank, !dim.has_value());
  if (dim) {
    for (int64_t d : *dim) {
      TSIR_RT_ASSIGN_OR_RETURN(int64_t w, wrapDim(d, rank));
      if (rank > 0) {
        if (reduce[w])
          return Status::error("dim " + std::to_string(w) +
                               " appears multiple times in the list of dims");
        reduce[w] = true;
      }
    }
  }
  std::vector<int64_t> outSizes, outStrides(rank, 0);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (!reduce[d]) {
      outStrides[d] = stride;
      stride *= self.size(d);
    }
  for (int64_t d = 0; d < rank; ++d)
    if (!reduce[d])
      outSizes.push_back(self.size(d));
  std::vector<double> values = toDoubles(self);
  std::vector<int64_t> counts(stride, 0), index(rank, 0);
  for (double v : values) {
    int64_t at = 0;
    for (int64_t d = 0; d < rank; ++d)
      at += index[d] * outStrides[d];
    counts[at] += v != 0.0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < self.size(d))
        break;
      index[d] = 0;
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, fromInt64s(counts, outSizes));
  return out;
}

} // namespace

void registerSelectionKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::masked_select(Tensor self, Tensor mask) -> Tensor",
           bindKernel(maskedSelect)},
          {"aten::argwhere(Tensor self) -> Tensor", bindKernel(argwhere)},
          {"aten::nonzero_numpy(Tensor self) -> Tensor[]",
           bindKernel(nonzeroNumpy)},
          // torch.where(condition) is nonzero(condition, as_tuple=True). It is
          // registered under the bare name the other where overloads share
          // (they lower), so the arity is checked.
          {"aten::where(Tensor condition) -> Tensor[]",
           [](Stack &stack) {
             if (stack.size() != 1)
               return Status::error("where(condition) takes 1 argument, got " +
                                    std::to_string(stack.size()));
             return bindKernel(nonzeroNumpy)(stack);
           }},
          {"aten::_unique2(Tensor self, bool sorted=True, bool "
           "return_inverse=False, bool return_counts=False) -> (Tensor, "
           "Tensor, Tensor)",
           bindKernel(unique2)},
          {"aten::unique_consecutive(Tensor self, bool return_inverse=False, "
           "bool return_counts=False, int? dim=None) -> (Tensor, Tensor, "
           "Tensor)",
           bindKernel(uniqueConsecutive)},
          // Bare names: the kernels read the Tensor and Scalar overloads alike.
          {"aten::searchsorted", bindKernel(searchsorted)},
          {"aten::bucketize", bindKernel(bucketize)},
          {"aten::bincount(Tensor self, Tensor? weights=None, int minlength=0) "
           "-> Tensor",
           bindKernel(bincount)},
          {"aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) "
           "-> Tensor",
           bindKernel(histc)},
          {"aten::histogram", byArgumentCount(5, bindKernel(histogramByCount),
                                              bindKernel(histogramByEdges))},
          {"aten::histogramdd", bindKernel(histogramdd)},
          {"aten::isin", bindKernel(isin)},
          {"aten::count_nonzero", bindKernel(countNonzero)},
      });
}

} // namespace tsir::rt
