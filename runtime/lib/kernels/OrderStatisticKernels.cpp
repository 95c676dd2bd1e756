//===- OrderStatisticKernels.cpp - median, mode, kthvalue, quantile -------===//
//
// Builtin kernels for the order statistics tsir has no compiled form for:
// median and nanmedian (whole tensor or along a dim), mode, kthvalue,
// quantile and nanquantile; and topk and sort for slices too long for the
// compiled form's quadratic ranking. Where several elements tie, the index returned
// is the one torch's CPU kernel returns: median takes the k-th in (value,
// index) order, mode replays torch's std::sort of (value, index) pairs, and
// kthvalue replays torch's quick_select_template. NaN sorts as the largest
// value; median and quantile return NaN for rows holding one, the nan*
// variants skip them.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tsir::rt {

using namespace data;

namespace {

/// Rows of a tensor along `dim`: `rows` vectors of `split.size` values.
struct Rows {
  DimSplit split;
  std::vector<double> values;
  int64_t count() const { return split.outer * split.inner; }
  void row(int64_t r, std::vector<double> &out) const {
    int64_t o = r / split.inner, i = r % split.inner;
    out.resize(split.size);
    for (int64_t k = 0; k < split.size; ++k)
      out[k] = values[(o * split.size + k) * split.inner + i];
  }
};

/// The order of the positions of `row` by value, NaN the largest, ties by
/// position (ascending, or `descending` with ties still by position).
struct ValueOrder {
  const std::vector<double> &row;
  bool descending = false;
  bool operator()(int64_t a, int64_t b) const {
    bool nanA = isNan(row[a]), nanB = isNan(row[b]);
    if (nanA != nanB)
      return descending ? nanA : nanB;
    if (!nanA && row[a] != row[b])
      return descending ? row[a] > row[b] : row[a] < row[b];
    return a < b;
  }
};

Rows rowsOf(const Tensor &self, int64_t dim) {
  Rows rows;
  rows.split = splitAt(self.sizes(), dim);
  rows.values = toDoubles(self);
  return rows;
}

/// (values, indices) of a dim reduction, shaped.
StatusOr<std::tuple<Tensor, Tensor>>
valuesIndices(const Tensor &self, int64_t dim, bool keepdim,
              const std::vector<double> &values,
              const std::vector<int64_t> &indices) {
  std::vector<int64_t> sizes = reducedSizes(self.sizes(), dim, keepdim);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor v, fromDoubles(values, sizes, self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor i, fromInt64s(indices, sizes));
  return std::make_tuple(v, i);
}

Status emptyDimError(const char *op, int64_t dim) {
  return Status::error(std::string(op) + "(): Expected reduction dim " +
                       std::to_string(dim) + " to have non-zero size.");
}

/// median / nanmedian of the whole tensor (a 0-d result).
template <bool IgnoreNan> StatusOr<Tensor> medianAll(Tensor self) {
  std::vector<double> values = toDoubles(self);
  double result = NAN;
  std::vector<double> kept;
  bool sawNan = false;
  for (double v : values) {
    if (isNan(v))
      sawNan = true;
    else
      kept.push_back(v);
  }
  if (!kept.empty() && (IgnoreNan || !sawNan)) {
    auto nth = kept.begin() + (kept.size() - 1) / 2;
    std::nth_element(kept.begin(), nth, kept.end());
    result = *nth;
  }
  return fromDoubles({result}, {}, self.dtype());
}

/// median / nanmedian along a dim: (values, indices).
template <bool IgnoreNan>
StatusOr<std::tuple<Tensor, Tensor>> medianDim(Tensor self, int64_t dimArg,
                                               bool keepdim) {
  const char *op = IgnoreNan ? "nanmedian" : "median";
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  Rows rows = rowsOf(self, dim);
  if (rows.split.size == 0 && self.numel() == 0 && self.dim() > 0)
    return emptyDimError(op, dim);
  std::vector<double> values, row;
  std::vector<int64_t> indices;
  for (int64_t r = 0; r < rows.count(); ++r) {
    rows.row(r, row);
    int64_t size = static_cast<int64_t>(row.size());
    int64_t firstNan = -1, nans = 0;
    for (int64_t k = 0; k < size; ++k)
      if (isNan(row[k])) {
        ++nans;
        if (firstNan < 0)
          firstNan = k;
      }
    if (!IgnoreNan && firstNan >= 0) {
      values.push_back(row[firstNan]);
      indices.push_back(firstNan);
      continue;
    }
    // torch's nth_element comparator: (value, index) order, NaNs last.
    std::vector<int64_t> order(size);
    std::iota(order.begin(), order.end(), int64_t(0));
    std::sort(order.begin(), order.end(), ValueOrder{row});
    int64_t k = (size - nans - 1) / 2;
    values.push_back(row[order[k]]);
    indices.push_back(order[k]);
  }
  return valuesIndices(self, dim, keepdim, values, indices);
}

StatusOr<std::tuple<Tensor, Tensor>> mode(Tensor self, int64_t dimArg,
                                          bool keepdim) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  Rows rows = rowsOf(self, dim);
  if (rows.split.size == 0 && self.numel() == 0 && self.dim() > 0)
    return emptyDimError("mode", dim);
  std::vector<double> values, row;
  std::vector<int64_t> indices;
  for (int64_t r = 0; r < rows.count(); ++r) {
    rows.row(r, row);
    int64_t size = static_cast<int64_t>(row.size());
    // torch's mode kernel: an (unstable) std::sort of (value, index) pairs
    // by value, then the first longest run; its index is the run's last.
    std::vector<std::pair<double, int64_t>> elements(size);
    for (int64_t k = 0; k < size; ++k)
      elements[k] = {row[k], k};
    std::sort(elements.begin(), elements.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    double modeValue = 0;
    int64_t modeIndex = 0, freq = 0, maxFreq = 0;
    for (int64_t k = 0; k < size; ++k) {
      ++freq;
      if (k == size - 1 || elements[k].first != elements[k + 1].first) {
        if (freq > maxFreq) {
          modeValue = elements[k].first;
          modeIndex = elements[k].second;
          maxFreq = freq;
        }
        freq = 0;
      }
    }
    values.push_back(modeValue);
    indices.push_back(modeIndex);
  }
  return valuesIndices(self, dim, keepdim, values, indices);
}

/// torch's quick_select_template (aten/src/ATen/native/SortingUtils.h):
/// partially orders `values` (and `indices` alongside) so that position k
/// holds the k-th smallest, NaN counting as the largest.
void quickSelect(std::vector<double> &values, std::vector<int64_t> &indices,
                 int64_t k) {
  auto gtOrNan = [](double x, double y) {
    return (isNan(x) && !isNan(y)) || x > y;
  };
  auto swap = [&](int64_t i, int64_t j) {
    std::swap(values[i], values[j]);
    std::swap(indices[i], indices[j]);
  };
  int64_t L = 0, R = static_cast<int64_t>(values.size()) - 1;
  while (true) {
    if (R <= L)
      return;
    if (R == L + 1) {
      if (gtOrNan(values[L], values[R]))
        swap(L, R);
      return;
    }
    int64_t P = L + (R - L) / 2;
    swap(P, L + 1);
    if (gtOrNan(values[L + 1], values[R]))
      swap(L + 1, R);
    if (gtOrNan(values[L], values[R]))
      swap(L, R);
    if (gtOrNan(values[L + 1], values[L]))
      swap(L + 1, L);
    int64_t i = L + 1, j = R;
    double piv = values[L];
    while (true) {
      do
        ++i;
      while (gtOrNan(piv, values[i]));
      do
        --j;
      while (gtOrNan(values[j], piv));
      if (j < i)
        break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k)
      L = i;
    if (j >= k)
      R = j - 1;
  }
}

StatusOr<std::tuple<Tensor, Tensor>> kthvalue(Tensor self, int64_t k,
                                              int64_t dimArg, bool keepdim) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  Rows rows = rowsOf(self, dim);
  if (k < 1 || k > rows.split.size)
    return Status::error("kthvalue(): selected number k out of range for "
                         "dimension " +
                         std::to_string(dim));
  std::vector<double> values, row;
  std::vector<int64_t> indices, rowIndices;
  for (int64_t r = 0; r < rows.count(); ++r) {
    rows.row(r, row);
    rowIndices.resize(row.size());
    std::iota(rowIndices.begin(), rowIndices.end(), int64_t(0));
    quickSelect(row, rowIndices, k - 1);
    values.push_back(row[k - 1]);
    indices.push_back(rowIndices[k - 1]);
  }
  return valuesIndices(self, dim, keepdim, values, indices);
}

enum class Interpolation { Linear, Lower, Higher, Midpoint, Nearest };

/// torch's quantile_compute in T: ranks from q and the (non-NaN) count,
/// adjusted by the interpolation, then a lerp of the sorted neighbours.
template <class T>
T quantileOfSorted(const std::vector<T> &sorted, int64_t nonNan, T q,
                   Interpolation mode, bool ignoreNan) {
  int64_t n = static_cast<int64_t>(sorted.size());
  T rank;
  if (ignoreNan) {
    rank = q * static_cast<T>(nonNan - 1);
    if (rank < 0)
      rank = 0;
  } else {
    rank = nonNan < n ? static_cast<T>(n - 1) : q * static_cast<T>(n - 1);
  }
  if (mode == Interpolation::Lower)
    rank = std::floor(rank);
  else if (mode == Interpolation::Higher)
    rank = std::ceil(rank);
  else if (mode == Interpolation::Nearest)
    rank = std::nearbyint(rank);
  int64_t below = static_cast<int64_t>(rank);
  T value = sorted[below];
  if (mode == Interpolation::Linear || mode == Interpolation::Midpoint) {
    T weight = mode == Interpolation::Midpoint ? T(0.5) : rank - T(below);
    T above = sorted[static_cast<int64_t>(std::ceil(rank))];
    value = weight < T(0.5) ? value + weight * (above - value)
                            : above - (above - value) * (T(1) - weight);
  }
  return value;
}

template <class T>
StatusOr<Tensor> quantileTyped(const Tensor &self,
                               const std::vector<double> &qs, bool qIsVector,
                               std::optional<int64_t> dimArg, bool keepdim,
                               Interpolation mode, bool ignoreNan) {
  Tensor input = self;
  std::vector<int64_t> outSizes;
  int64_t dim = 0;
  if (!dimArg) {
    TSIR_RT_ASSIGN_OR_RETURN(input, self.reshape({self.numel()}));
    if (keepdim)
      outSizes.assign(self.dim(), 1);
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(dim, wrapDim(*dimArg, self.dim()));
    outSizes = reducedSizes(self.sizes(), dim, keepdim);
    if (self.dim() == 0) {
      TSIR_RT_ASSIGN_OR_RETURN(input, self.reshape({1}));
    }
  }
  Rows rows = rowsOf(input, dim);
  if (rows.split.size == 0)
    return Status::error(std::string(ignoreNan ? "nanquantile" : "quantile") +
                         "() input tensor must be non-empty");
  int64_t count = rows.count(), nq = static_cast<int64_t>(qs.size());
  std::vector<double> out(nq * count), row;
  std::vector<T> sorted;
  for (int64_t r = 0; r < count; ++r) {
    rows.row(r, row);
    sorted.assign(row.begin(), row.end());
    std::sort(sorted.begin(), sorted.end(), [](T a, T b) {
      if (isNan(a) || isNan(b))
        return !isNan(a) && isNan(b);
      return a < b;
    });
    int64_t nonNan = 0;
    for (T v : sorted)
      nonNan += !isNan(v);
    for (int64_t j = 0; j < nq; ++j)
      out[j * count + r] = quantileOfSorted<T>(
          sorted, nonNan, static_cast<T>(qs[j]), mode, ignoreNan);
  }
  if (qIsVector)
    outSizes.insert(outSizes.begin(), nq);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(out, outSizes, self.dtype()));
  return result;
}

/// quantile / nanquantile (`ignoreNan`) (self, q, dim, keepdim, *,
/// interpolation): `q` is a Tensor or a float (the overloads torch tells
/// apart).
StatusOr<Tensor> quantileOf(bool ignoreNan, const Tensor &self,
                            const Value &qArg, std::optional<int64_t> dim,
                            bool keepdim, const std::string &interpolation) {
  std::string op = ignoreNan ? "nanquantile" : "quantile";
  const std::string &name = interpolation;
  Interpolation mode;
  if (name == "linear")
    mode = Interpolation::Linear;
  else if (name == "lower")
    mode = Interpolation::Lower;
  else if (name == "higher")
    mode = Interpolation::Higher;
  else if (name == "midpoint")
    mode = Interpolation::Midpoint;
  else if (name == "nearest")
    mode = Interpolation::Nearest;
  else
    return Status::error(op + "() interpolation must be one of linear, lower, "
                              "higher, midpoint or nearest. Got " +
                         name);
  if (self.dtype() != DType::Float32 && self.dtype() != DType::Float64)
    return Status::error(op + "() input tensor must be either float or double "
                              "dtype");
  std::vector<double> qs;
  bool qIsVector = false;
  if (qArg.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor q, requireTensor(qArg));
    if (q.dim() > 1)
      return Status::error(op + "() q must be a scalar or 1D tensor");
    if (q.dtype() != self.dtype())
      return Status::error(op + "() q tensor must be same dtype as the input "
                                "tensor");
    qIsVector = q.dim() == 1;
    qs = toDoubles(q);
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(double q, scalarArg(qArg, "q"));
    qs = {q};
  }
  for (double q : qs)
    if (!(q >= 0.0 && q <= 1.0))
      return Status::error(op + "() q values must be in the range [0, 1]");
  if (self.dtype() == DType::Float32)
    return quantileTyped<float>(self, qs, qIsVector, dim, keepdim, mode,
                                ignoreNan);
  return quantileTyped<double>(self, qs, qIsVector, dim, keepdim, mode,
                               ignoreNan);
}

StatusOr<Tensor> quantile(Tensor self, Value q, std::optional<int64_t> dim,
                          bool keepdim, std::string interpolation) {
  return quantileOf(false, self, q, dim, keepdim, interpolation);
}

StatusOr<Tensor> nanquantile(Tensor self, Value q, std::optional<int64_t> dim,
                             bool keepdim, std::string interpolation) {
  return quantileOf(true, self, q, dim, keepdim, interpolation);
}

/// The first `k` of each row along `dim` in sorted order (`descending`:
/// largest first), as (values, indices), the order of the compiled
/// lowering (Sorting.cpp): NaN the largest value, ties in input order.
/// The compiled form ranks every pair, which is quadratic; torchvision's
/// detection heads take the top 1000 of a million scores, which this does
/// in n log k.
StatusOr<std::tuple<Tensor, Tensor>>
sortedPrefix(const Tensor &self, int64_t k, int64_t dim, bool descending) {
  Rows rows = rowsOf(self, dim);
  int64_t size = rows.split.size;
  if (k < 0 || k > size)
    return Status::error("selected index k out of range");
  std::vector<int64_t> sizes = self.sizes();
  if (!sizes.empty())
    sizes[dim] = k;
  int64_t inner = rows.split.inner;
  std::vector<double> values(rows.count() * k);
  std::vector<int64_t> indices(rows.count() * k);
  std::vector<double> row;
  std::vector<int64_t> order(size);
  for (int64_t r = 0; r < rows.count(); ++r) {
    rows.row(r, row);
    std::iota(order.begin(), order.end(), int64_t(0));
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      ValueOrder{row, descending});
    int64_t o = r / inner, i = r % inner;
    for (int64_t j = 0; j < k; ++j) {
      int64_t at = (o * k + j) * inner + i;
      values[at] = row[order[j]];
      indices[at] = order[j];
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor v, fromDoubles(values, sizes, self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor i, fromInt64s(indices, sizes));
  return std::make_tuple(v, i);
}

StatusOr<std::tuple<Tensor, Tensor>>
topk(Tensor self, int64_t k, int64_t dimArg, bool largest, bool sorted) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  // `sorted=False` lets torch return any order; sorted is one of them.
  (void)sorted;
  return sortedPrefix(self, k, dim, largest);
}

StatusOr<std::tuple<Tensor, Tensor>> sort(Tensor self, int64_t dimArg,
                                          bool descending) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  int64_t size = self.dim() == 0 ? 1 : self.sizes()[dim];
  return sortedPrefix(self, size, dim, descending);
}

StatusOr<Tensor> argsort(Tensor self, int64_t dim, bool descending) {
  // sort's (values, indices); argsort returns the indices alone.
  TSIR_RT_ASSIGN_OR_RETURN(auto sorted, sort(self, dim, descending));
  return std::get<1>(std::move(sorted));
}

} // namespace

void registerOrderStatisticKernels(KernelRegistry &registry) {
  // Bare names: median and nanmedian read the whole-tensor and the dim
  // overloads, quantile and nanquantile the Tensor and float q ones.
  registerKernelTable(
      registry,
      {
          {"aten::median", byArgumentCount(2, bindKernel(medianDim<false>),
                                           bindKernel(medianAll<false>))},
          {"aten::nanmedian", byArgumentCount(2, bindKernel(medianDim<true>),
                                              bindKernel(medianAll<true>))},
          {"aten::mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor "
           "values, Tensor indices)",
           bindKernel(mode)},
          {"aten::kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) "
           "-> (Tensor values, Tensor indices)",
           bindKernel(kthvalue)},
          {"aten::quantile", bindKernel(quantile)},
          {"aten::nanquantile", bindKernel(nanquantile)},
          {"aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool "
           "sorted=True) -> (Tensor values, Tensor indices)",
           bindKernel(topk)},
          {"aten::sort(Tensor self, int dim=-1, bool descending=False) -> "
           "(Tensor values, Tensor indices)",
           bindKernel(sort)},
          {"aten::argsort(Tensor self, int dim=-1, bool descending=False) -> "
           "Tensor",
           bindKernel(argsort)},
      });
}

} // namespace tsir::rt
