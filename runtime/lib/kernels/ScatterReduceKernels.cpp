//===- ScatterReduceKernels.cpp - Builtin scatter/index reduction kernels -===//
//
// scatter_reduce (sum, prod, mean, amax, amin; include_self or not),
// index_reduce, segment_reduce, index_add, index_copy and index_fill: ops
// that combine many source elements into positions chosen by index values,
// which tsir has no compiled form for. Every index is range-checked with
// torch's message before any element is touched. Reductions run in Float64
// and are converted to the input's dtype (integral means floor-divide, as
// torch's do); copies and fills move bytes.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tsir::rt {

using namespace data;

namespace {

enum class Reduce { Sum, Prod, Mean, Max, Min };

StatusOr<Reduce> parseReduce(const std::string &name, const char *op,
                             bool allowSum) {
  if ((name == "sum" && allowSum))
    return Reduce::Sum;
  if (name == "prod")
    return Reduce::Prod;
  if (name == "mean")
    return Reduce::Mean;
  if (name == "amax" || name == "max")
    return Reduce::Max;
  if (name == "amin" || name == "min")
    return Reduce::Min;
  return Status::error(std::string(op) +
                       "(): reduce argument must be either sum, prod, mean, "
                       "amax or amin, got " +
                       name);
}

double combine(Reduce reduce, double acc, double v) {
  switch (reduce) {
  case Reduce::Sum:
  case Reduce::Mean:
    return acc + v;
  case Reduce::Prod:
    return acc * v;
  case Reduce::Max:
    return isNan(v) ? v : std::max(acc, v);
  case Reduce::Min:
    return isNan(v) ? v : std::min(acc, v);
  }
  return acc;
}

/// Applies (position, value) updates to `out` as torch's scatter/index
/// reductions do: positions receiving updates start from their own value
/// (include_self) or from the first update, and means divide by the number
/// of contributions.
void applyReduce(std::vector<double> &out,
                 const std::vector<std::pair<int64_t, double>> &updates,
                 Reduce reduce, bool includeSelf, bool integral) {
  std::vector<int64_t> count(out.size(), includeSelf ? 1 : 0);
  std::vector<bool> started(out.size(), includeSelf);
  for (const auto &[pos, v] : updates) {
    if (!started[pos]) {
      out[pos] = v;
      started[pos] = true;
    } else {
      out[pos] = combine(reduce, out[pos], v);
    }
    ++count[pos];
  }
  if (reduce != Reduce::Mean)
    return;
  for (size_t i = 0; i < out.size(); ++i) {
    double c = count[i] == 0 ? 1.0 : static_cast<double>(count[i]);
    out[i] = integral ? std::floor(out[i] / c) : out[i] / c;
  }
}

/// The multi-index of linear position `k` in a row-major tensor of `sizes`.
void unravel(int64_t k, const std::vector<int64_t> &sizes,
             std::vector<int64_t> &index) {
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    index[d] = sizes[d] == 0 ? 0 : k % sizes[d];
    k = sizes[d] == 0 ? 0 : k / sizes[d];
  }
}

int64_t ravel(const std::vector<int64_t> &index,
              const std::vector<int64_t> &strides) {
  int64_t at = 0;
  for (size_t d = 0; d < index.size(); ++d)
    at += index[d] * strides[d];
  return at;
}

StatusOr<Tensor> scatterReduce(Tensor self, int64_t dimArg, Tensor index,
                               Tensor src, std::string reduceName,
                               bool includeSelf) {
  TSIR_RT_ASSIGN_OR_RETURN(Reduce reduce,
                           parseReduce(reduceName, "scatter_reduce", true));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  if (index.dtype() != DType::Int64)
    return Status::error("scatter(): Expected dtype int64 for index");
  if (self.dtype() != src.dtype())
    return Status::error(std::string("scatter(): Expected self.dtype to be "
                                     "equal to src.dtype"));
  std::vector<double> out = toDoubles(self);
  if (index.numel() > 0) {
    int64_t rank = std::max<int64_t>(self.dim(), 1);
    auto sizesOf = [&](const Tensor &t) {
      return t.dim() == 0 ? std::vector<int64_t>{1} : t.sizes();
    };
    std::vector<int64_t> selfSizes = sizesOf(self), indexSizes = sizesOf(index),
                         srcSizes = sizesOf(src);
    if (static_cast<int64_t>(indexSizes.size()) != rank ||
        static_cast<int64_t>(srcSizes.size()) != rank)
      return Status::error("Index tensor must have the same number of "
                           "dimensions as self tensor");
    for (int64_t d = 0; d < rank; ++d)
      if (indexSizes[d] > srcSizes[d] ||
          (d != dim && indexSizes[d] > selfSizes[d]))
        return Status::error(
            "Expected index " + sizesToString(indexSizes) +
            " to be smaller than self " + sizesToString(selfSizes) +
            " apart from dimension " + std::to_string(dim) +
            " and to be smaller size than src " + sizesToString(srcSizes));
    std::vector<int64_t> idx = toInt64s(index);
    std::vector<double> srcValues = toDoubles(src);
    std::vector<int64_t> selfStrides = contiguousStrides(selfSizes),
                         srcStrides = contiguousStrides(srcSizes);
    std::vector<std::pair<int64_t, double>> updates;
    std::vector<int64_t> at(rank);
    for (int64_t k = 0; k < static_cast<int64_t>(idx.size()); ++k) {
      unravel(k, indexSizes, at);
      int64_t srcPos = ravel(at, srcStrides);
      int64_t target = idx[k];
      if (target < 0 || target >= selfSizes[dim])
        return Status::error("index " + std::to_string(target) +
                             " is out of bounds for dimension " +
                             std::to_string(dim) + " with size " +
                             std::to_string(selfSizes[dim]));
      at[dim] = target;
      updates.push_back({ravel(at, selfStrides), srcValues[srcPos]});
    }
    applyReduce(out, updates, reduce, includeSelf, !isFloating(self.dtype()));
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(out, self.sizes(), self.dtype()));
  return result;
}

/// The checked (self position, source position) pairs of an index_* op:
/// source slice i along `dim` goes to self slice index[i].
StatusOr<std::vector<std::pair<int64_t, int64_t>>>
indexPairs(const Tensor &self, int64_t dim, const Tensor &index,
           const std::vector<int64_t> &sourceSizes, const char *op,
           bool wrapNegative) {
  if (index.dim() > 1)
    return Status::error(std::string(op) +
                         "(): Index is supposed to be a vector");
  if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
    return Status::error(std::string(op) +
                         "(): Expected dtype int32/int64 for index");
  std::vector<int64_t> selfSizes =
      self.dim() == 0 ? std::vector<int64_t>{1} : self.sizes();
  std::vector<int64_t> srcSizes =
      sourceSizes.empty() ? std::vector<int64_t>{1} : sourceSizes;
  int64_t n = index.numel();
  if (srcSizes.size() != selfSizes.size())
    return Status::error(std::string(op) +
                         "(): self and source must have the same number of "
                         "dimensions");
  for (size_t d = 0; d < selfSizes.size(); ++d)
    if (static_cast<int64_t>(d) != dim && srcSizes[d] != selfSizes[d])
      return Status::error(std::string(op) + "(): source " +
                           sizesToString(srcSizes) + " and self " +
                           sizesToString(selfSizes) +
                           " must match in every dimension but " +
                           std::to_string(dim));
  if (srcSizes[dim] != n)
    return Status::error(std::string(op) +
                         "(): Number of indices (" + std::to_string(n) +
                         ") should be equal to source.size(dim) (" +
                         std::to_string(srcSizes[dim]) + ")");
  std::vector<int64_t> idx = toInt64s(index);
  int64_t size = selfSizes[dim];
  for (int64_t &i : idx) {
    if (wrapNegative && i < 0 && i >= -size)
      i += size;
    if (i < 0 || i >= size)
      return Status::error(std::string(op) + "(): index " + std::to_string(i) +
                           " is out of bounds for dimension " +
                           std::to_string(dim) + " with size " +
                           std::to_string(size));
  }
  DimSplit selfSplit = splitAt(selfSizes, dim);
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t o = 0; o < selfSplit.outer; ++o)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < selfSplit.inner; ++j)
        pairs.push_back({(o * size + idx[i]) * selfSplit.inner + j,
                         (o * n + i) * selfSplit.inner + j});
  return pairs;
}

StatusOr<Tensor> indexReduce(Tensor self, int64_t dimArg, Tensor index,
                             Tensor source, std::string reduceName,
                             bool includeSelf) {
  TSIR_RT_ASSIGN_OR_RETURN(Reduce reduce,
                           parseReduce(reduceName, "index_reduce", false));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  TSIR_RT_ASSIGN_OR_RETURN(
      auto pairs,
      indexPairs(self, dim, index, source.sizes(), "index_reduce", false));
  std::vector<double> out = toDoubles(self), src = toDoubles(source);
  std::vector<std::pair<int64_t, double>> updates;
  for (const auto &[to, from] : pairs)
    updates.push_back({to, src[from]});
  applyReduce(out, updates, reduce, includeSelf, !isFloating(self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(out, self.sizes(), self.dtype()));
  return result;
}

StatusOr<Tensor> indexAdd(Tensor self, int64_t dimArg, Tensor index,
                          Tensor source, double alpha) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  TSIR_RT_ASSIGN_OR_RETURN(
      auto pairs,
      indexPairs(self, dim, index, source.sizes(), "index_add", false));
  std::vector<double> out = toDoubles(self), src = toDoubles(source);
  for (const auto &[to, from] : pairs)
    out[to] += alpha * src[from];
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(out, self.sizes(), self.dtype()));
  return result;
}

StatusOr<Tensor> indexCopy(Tensor self, int64_t dimArg, Tensor index,
                           Tensor source) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  if (index.dtype() != DType::Int64)
    return Status::error("index_copy_(): Expected a long tensor for index, "
                         "but got " +
                         std::string(dtypeTorchName(index.dtype())));
  if (source.dtype() != self.dtype())
    return Status::error("index_copy_(): self and source expected to have "
                         "the same dtype, but got (self) " +
                         std::string(dtypeTorchName(self.dtype())) +
                         " and (source) " + dtypeTorchName(source.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(
      auto pairs,
      indexPairs(self, dim, index, source.sizes(), "index_copy_", false));
  Tensor out = self.clone(), src = source.contiguous();
  for (const auto &[to, from] : pairs)
    moveElement(out, to, src, from);
  return out;
}

/// index_fill(self, dim, index, value): `value` is a Scalar or a 0-d
/// tensor (the overloads torch tells apart).
StatusOr<Tensor> indexFill(Tensor self, int64_t dimArg, Tensor index,
                           Value fillValue) {
  if (fillValue.isTensor() && fillValue.toTensor().dim() != 0)
    return Status::error("index_fill_ only supports a 0-dimensional value "
                         "tensor, but got tensor with " +
                         std::to_string(fillValue.toTensor().dim()) +
                         " dimension(s).");
  TSIR_RT_ASSIGN_OR_RETURN(double value, scalarArg(fillValue, "value"));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  if (index.dtype() != DType::Int64)
    return Status::error("index_fill_(): Expected dtype int64 for index.");
  std::vector<int64_t> sourceSizes = self.sizes();
  if (!sourceSizes.empty())
    sourceSizes[dim] = index.numel();
  else
    sourceSizes = {index.numel()};
  TSIR_RT_ASSIGN_OR_RETURN(
      auto pairs, indexPairs(self, dim, index.dim() == 0 ? index.reshape({1}).value() : index,
                             sourceSizes, "index_fill_", true));
  Tensor out = self.clone();
  Tensor fill = Tensor::scalar(value, self.dtype());
  for (const auto &[to, from] : pairs)
    moveElement(out, to, fill, 0);
  return out;
}

StatusOr<Tensor> segmentReduce(Tensor data, std::string reduceName,
                               std::optional<Tensor> lengthsArg,
                               std::optional<Tensor> indices,
                               std::optional<Tensor> offsetsArg,
                               int64_t axisArg, bool unsafe,
                               std::optional<double> initialArg) {
  // indices is accepted and unused, as on torch's CPU.
  (void)indices;
  Tensor lengths = lengthsArg.value_or(Tensor());
  Tensor offsets = offsetsArg.value_or(Tensor());
  bool hasInitial = initialArg.has_value();
  double initial = initialArg.value_or(0.0);
  Reduce reduce;
  if (reduceName == "sum")
    reduce = Reduce::Sum;
  else if (reduceName == "mean")
    reduce = Reduce::Mean;
  else if (reduceName == "max")
    reduce = Reduce::Max;
  else if (reduceName == "min")
    reduce = Reduce::Min;
  else if (reduceName == "prod")
    reduce = Reduce::Prod;
  else
    return Status::error("segment_reduce(): unsupported reduction " +
                         reduceName);
  TSIR_RT_ASSIGN_OR_RETURN(int64_t axis, wrapDim(axisArg, data.dim()));
  if (data.dim() == 0)
    return Status::error("segment_reduce(): data must have at least one "
                         "dimension");
  DimSplit split = splitAt(data.sizes(), axis);
  // Segment boundaries per outer row, as offsets.
  std::vector<int64_t> bounds;
  int64_t segments = 0;
  if (lengths.defined()) {
    if (lengths.dim() != axis + 1)
      return Status::error("segment_reduce(): Expected lengths to have " +
                           std::to_string(axis + 1) + " dimensions");
    segments = lengths.size(-1);
    std::vector<int64_t> l = toInt64s(lengths);
    for (int64_t o = 0; o * segments < static_cast<int64_t>(l.size()) ||
                        (segments == 0 && o < split.outer);
         ++o) {
      int64_t acc = 0;
      bounds.push_back(0);
      for (int64_t s = 0; s < segments; ++s) {
        if (l[o * segments + s] < 0)
          return Status::error("segment_reduce(): lengths contains negative "
                               "value!");
        acc += l[o * segments + s];
        bounds.push_back(acc);
      }
      if (!unsafe && acc != split.size)
        return Status::error("segment_reduce(): Expected all rows of lengths "
                             "along axis to sum to data.size(lengths.dim()-1) "
                             "when !unsafe.");
    }
  } else if (offsets.defined()) {
    if (offsets.dim() != axis + 1)
      return Status::error("segment_reduce(): Expected offsets to have " +
                           std::to_string(axis + 1) + " dimensions");
    segments = offsets.size(-1) - 1;
    bounds = toInt64s(offsets);
  } else {
    return Status::error("segment_reduce(): Either lengths or offsets must "
                         "be defined");
  }
  if (segments < 0)
    return Status::error("segment_reduce(): offsets must not be empty");
  int64_t rowBounds = segments + 1;
  if (static_cast<int64_t>(bounds.size()) != split.outer * rowBounds)
    return Status::error("segment_reduce(): lengths/offsets do not match the "
                         "leading dimensions of data");
  for (size_t i = 0; i < bounds.size(); ++i)
    if (bounds[i] < 0 || bounds[i] > split.size ||
        (i % rowBounds && bounds[i] < bounds[i - 1]))
      return Status::error("segment_reduce(): offsets out of range for data "
                           "of size " +
                           std::to_string(split.size) + " along axis");
  std::vector<double> values = toDoubles(data);
  std::vector<double> out(split.outer * segments * split.inner);
  double identity = reduce == Reduce::Max   ? -INFINITY
                    : reduce == Reduce::Min ? INFINITY
                    : reduce == Reduce::Prod ? 1.0
                                             : 0.0;
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t s = 0; s < segments; ++s) {
      int64_t begin = bounds[o * rowBounds + s],
              end = bounds[o * rowBounds + s + 1];
      for (int64_t i = 0; i < split.inner; ++i) {
        double acc = hasInitial ? initial : identity;
        for (int64_t j = begin; j < end; ++j)
          acc = combine(reduce, acc,
                        values[(o * split.size + j) * split.inner + i]);
        if (reduce == Reduce::Mean) {
          if (end > begin)
            acc /= static_cast<double>(end - begin);
          else if (!hasInitial)
            acc = NAN;
        }
        out[(o * segments + s) * split.inner + i] = acc;
      }
    }
  std::vector<int64_t> outSizes = data.sizes();
  outSizes[axis] = segments;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(out, outSizes, data.dtype()));
  return result;
}

} // namespace

void registerScatterReduceKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::scatter_reduce.two(Tensor self, int dim, Tensor index, "
           "Tensor src, str reduce, *, bool include_self=True) -> Tensor",
           bindKernel(scatterReduce)},
          {"aten::index_reduce(Tensor self, int dim, Tensor index, Tensor "
           "source, str reduce, *, bool include_self=True) -> Tensor",
           bindKernel(indexReduce)},
          {"aten::segment_reduce(Tensor data, str reduce, *, Tensor? "
           "lengths=None, Tensor? indices=None, Tensor? offsets=None, int "
           "axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor",
           bindKernel(segmentReduce)},
          {"aten::index_add(Tensor self, int dim, Tensor index, Tensor source, "
           "*, Scalar alpha=1) -> Tensor",
           bindKernel(indexAdd)},
          {"aten::index_copy(Tensor self, int dim, Tensor index, Tensor "
           "source) -> Tensor",
           bindKernel(indexCopy)},
          // Bare name: the kernel reads the Scalar and Tensor value overloads.
          {"aten::index_fill", bindKernel(indexFill)},
      });
}

} // namespace tsir::rt
