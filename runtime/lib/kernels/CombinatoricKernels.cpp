//===- CombinatoricKernels.cpp - combinations, repeats and sampling -------===//
//
// Builtin kernels whose output size is computed from argument values or
// whose values are random: combinations, cartesian_prod,
// repeat_interleave (all three overloads), multinomial and normal (its
// tensor/float overloads). Elements move byte-exact. Random draws come from
// this file's own std::mt19937_64, seeded once per process; generators are
// ignored, so only shapes and dtypes can match torch.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <random>

namespace tsir::rt {

using namespace data;

namespace {

StatusOr<Tensor> combinations(Tensor self, int64_t r, bool replacement) {
  if (self.dim() != 1)
    return Status::error("Expect a 1D vector, but got shape " +
                         sizesToString(self.sizes()));
  if (r < 0)
    return Status::error("Expect a non-negative number, but got " +
                         std::to_string(r));
  if (r == 0) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor empty, Tensor::tryEmpty({0}, self.dtype()));
    return empty;
  }
  int64_t n = self.size(0);
  // Index tuples in lexicographic order, increasing (non-decreasing with
  // replacement).
  std::vector<int64_t> rows, current(r);
  bool valid = replacement ? n > 0 : r <= n;
  for (int64_t k = 0; k < r && valid; ++k)
    current[k] = replacement ? 0 : k;
  while (valid) {
    rows.insert(rows.end(), current.begin(), current.end());
    int64_t k = r - 1;
    while (k >= 0 &&
           current[k] == (replacement ? n - 1 : n - r + k))
      --k;
    if (k < 0)
      break;
    ++current[k];
    for (int64_t j = k + 1; j < r; ++j)
      current[j] = replacement ? current[k] : current[j - 1] + 1;
  }
  int64_t count = static_cast<int64_t>(rows.size()) / r;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, Tensor::tryEmpty({count, r}, self.dtype()));
  Tensor src = self.contiguous();
  for (size_t i = 0; i < rows.size(); ++i)
    moveElement(out, i, src, rows[i]);
  return out;
}

/// cartesian_prod(Tensor[] tensors).
StatusOr<Tensor> cartesianProd(Value tensorsArg) {
  if (!tensorsArg.isList())
    return Status::error(
        std::string("cartesian_prod: expected Tensor[], got ") +
        tensorsArg.kindName());
  std::vector<Tensor> tensors;
  for (const Value &v : tensorsArg.toList()) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor t, requireTensor(v));
    if (t.dim() != 1)
      return Status::error("Expect a 1D vector, but got shape " +
                           sizesToString(t.sizes()));
    if (!tensors.empty() && t.dtype() != tensors[0].dtype())
      return Status::error("meshgrid expects all tensors to have the same "
                           "dtype");
    tensors.push_back(t.contiguous());
  }
  if (tensors.empty())
    return Status::error("meshgrid expects a non-empty TensorList");
  if (tensors.size() == 1)
    return tensors[0];
  int64_t k = static_cast<int64_t>(tensors.size()), count = 1;
  for (const Tensor &t : tensors)
    count *= t.size(0);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out,
                           Tensor::tryEmpty({count, k}, tensors[0].dtype()));
  std::vector<int64_t> at(k, 0);
  for (int64_t row = 0; row < count; ++row) {
    for (int64_t j = 0; j < k; ++j)
      moveElement(out, row * k + j, tensors[j], at[j]);
    for (int64_t j = k - 1; j >= 0; --j) {
      if (++at[j] < tensors[j].size(0))
        break;
      at[j] = 0;
    }
  }
  return out;
}

/// Checked repeat counts for `n` slices: one count broadcasts.
StatusOr<std::vector<int64_t>> repeatCounts(const Value &repeats, int64_t n) {
  std::vector<int64_t> counts;
  if (repeats.isTensor()) {
    const Tensor &t = repeats.toTensor();
    if (t.dim() > 1)
      return Status::error("repeat_interleave only accept 1D vector as "
                           "repeat");
    if (isFloating(t.dtype()) || t.dtype() == DType::Bool)
      return Status::error("repeats has to be Long or Int tensor");
    counts = toInt64s(t);
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t r, intArg(repeats, "repeats"));
    counts = {r};
  }
  if (counts.size() == 1 && n != 1)
    counts.assign(n, counts[0]);
  if (static_cast<int64_t>(counts.size()) != n)
    return Status::error("repeats must have the same size as input along "
                         "dim, but got repeats.size(0) = " +
                         std::to_string(counts.size()) + " and input.size(" +
                         "dim) = " + std::to_string(n));
  for (int64_t c : counts)
    if (c < 0)
      return Status::error("repeats can not be negative");
  return counts;
}

/// repeat_interleave(repeats, *, output_size): each index repeated its
/// count of times.
StatusOr<Tensor> repeatIndices(Tensor repeats, const Value & /*outputSize*/) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> counts,
                           repeatCounts(Value(repeats), repeats.numel()));
  std::vector<int64_t> out;
  for (size_t i = 0; i < counts.size(); ++i)
    out.insert(out.end(), counts[i], static_cast<int64_t>(i));
  return fromInt64s(out, {static_cast<int64_t>(out.size())}, repeats.dtype());
}

/// repeat_interleave(self, repeats, dim, *, output_size), with repeats an
/// int or a tensor.
StatusOr<Tensor> repeatInterleave(Tensor self, const Value &repeats,
                                  std::optional<int64_t> dimArg,
                                  const Value & /*outputSize*/) {
  int64_t dim = 0;
  Tensor input = self;
  if (!dimArg) {
    TSIR_RT_ASSIGN_OR_RETURN(input, self.reshape({self.numel()}));
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(dim, wrapDim(*dimArg, self.dim()));
    if (self.dim() == 0) {
      TSIR_RT_ASSIGN_OR_RETURN(input, self.reshape({1}));
    }
  }
  DimSplit s = splitAt(input.sizes(), dim);
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> counts,
                           repeatCounts(repeats, s.size));
  std::vector<int64_t> source;
  for (int64_t i = 0; i < s.size; ++i)
    source.insert(source.end(), counts[i], i);
  int64_t total = static_cast<int64_t>(source.size());
  std::vector<int64_t> sizes = input.sizes();
  sizes[dim] = total;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, Tensor::tryEmpty(sizes, self.dtype()));
  Tensor src = input.contiguous();
  size_t row = s.inner * self.elementSize();
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t k = 0; k < total; ++k)
      if (row)
        std::memcpy(static_cast<char *>(out.data()) + (o * total + k) * row,
                    static_cast<const char *>(src.data()) +
                        (o * s.size + source[k]) * row,
                    row);
  return out;
}

std::mutex &rngMutex() {
  static std::mutex mutex;
  return mutex;
}

std::mt19937_64 &rng() {
  static std::mt19937_64 engine(std::random_device{}());
  return engine;
}

/// multinomial(self, num_samples, replacement, *, generator): the
/// generator is ignored (this file draws from its own engine).
StatusOr<Tensor> multinomial(Tensor self, int64_t numSamples, bool replacement,
                             Value generator) {
  (void)generator;
  if (self.dim() != 1 && self.dim() != 2)
    return Status::error("prob_dist must be 1 or 2 dim");
  if (!isFloating(self.dtype()))
    return Status::error(std::string("multinomial only supports floating-point "
                                     "dtypes for input, got: ") +
                         dtypeTorchName(self.dtype()));
  if (numSamples <= 0)
    return Status::error("cannot sample n_sample <= 0 samples");
  int64_t categories = self.size(-1);
  int64_t rows = self.dim() == 1 ? 1 : self.size(0);
  if (!replacement && numSamples > categories)
    return Status::error("cannot sample n_sample > prob_dist.size(-1) samples "
                         "without replacement");
  std::vector<double> p = toDoubles(self);
  std::vector<int64_t> out(rows * numSamples);
  std::lock_guard<std::mutex> lock(rngMutex());
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> w(p.begin() + r * categories,
                          p.begin() + (r + 1) * categories);
    double sum = 0;
    int64_t positive = 0;
    for (double v : w) {
      if (!(v >= 0) || !std::isfinite(v))
        return Status::error("probability tensor contains either `inf`, "
                             "`nan` or element < 0");
      sum += v;
      positive += v > 0;
    }
    if (!(sum > 0))
      return Status::error("invalid multinomial distribution (sum of "
                           "probabilities <= 0)");
    if (!replacement && positive < numSamples)
      return Status::error("invalid multinomial distribution (with "
                           "replacement=False, not enough non-negative "
                           "category to sample)");
    for (int64_t k = 0; k < numSamples; ++k) {
      std::discrete_distribution<int64_t> pick(w.begin(), w.end());
      int64_t c = pick(rng());
      out[r * numSamples + k] = c;
      if (!replacement)
        w[c] = 0;
    }
  }
  std::vector<int64_t> sizes = self.dim() == 1
                                   ? std::vector<int64_t>{numSamples}
                                   : std::vector<int64_t>{rows, numSamples};
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromInt64s(out, sizes));
  return result;
}

/// Samples of N(means[i], stds[i]) shaped `sizes`, in `dtype`.
StatusOr<Tensor> sampleNormal(const std::vector<double> &means,
                              const std::vector<double> &stds,
                              const std::vector<int64_t> &sizes, DType dtype) {
  if (!isFloating(dtype))
    return Status::error(std::string("\"normal_kernel_cpu\" not implemented "
                                     "for '") +
                         dtypeTorchName(dtype) + "'");
  for (double s : stds)
    if (!(s >= 0.0))
      return Status::error("normal expects std >= 0.0, but found std " +
                           formatDouble(s));
  std::vector<double> out(means.size());
  {
    std::lock_guard<std::mutex> lock(rngMutex());
    std::normal_distribution<double> unit;
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = means[i] + stds[i] * unit(rng());
  }
  return fromDoubles(out, sizes, dtype);
}

/// normal(mean, std, size, *, generator, dtype, layout, device,
/// pin_memory): numbers for mean and std.
StatusOr<Tensor> normalOfSize(double mean, double std, const Value &size,
                              const Value & /*generator*/,
                              std::optional<DType> dtype,
                              const Value & /*layout*/,
                              const Value & /*device*/,
                              const Value & /*pinMemory*/) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, sizeList(size));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t n, checkedNumel(sizes));
  return sampleNormal(std::vector<double>(n, mean), std::vector<double>(n, std),
                      sizes, dtype.value_or(DType::Float32));
}

/// normal(mean, std, *, generator) with a tensor mean, std or both.
StatusOr<Tensor> normalOfTensors(const Value &meanArg, const Value &stdArg,
                                 const Value & /*generator*/) {
  std::vector<int64_t> sizes;
  DType dtype = DType::Float32;
  std::vector<double> means, stds;
  Tensor mean, std;
  if (meanArg.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(mean, requireTensor(meanArg));
  }
  if (stdArg.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(std, requireTensor(stdArg));
  }
  if (!mean.defined() && !std.defined())
    return Status::error("normal: expected a Tensor mean or std");
  if (mean.defined() && std.defined()) {
    TSIR_RT_ASSIGN_OR_RETURN(sizes, broadcastSizes(mean.sizes(), std.sizes()));
    dtype = promoteTypes(mean.dtype(), std.dtype());
    TSIR_RT_ASSIGN_OR_RETURN(Tensor m, mean.expand(sizes));
    TSIR_RT_ASSIGN_OR_RETURN(Tensor s, std.expand(sizes));
    means = toDoubles(m);
    stds = toDoubles(s);
  } else {
    const Tensor &shaped = mean.defined() ? mean : std;
    sizes = shaped.sizes();
    dtype = shaped.dtype();
    int64_t n = shaped.numel();
    if (mean.defined()) {
      means = toDoubles(mean);
      TSIR_RT_ASSIGN_OR_RETURN(double s, scalarArg(stdArg, "std"));
      stds.assign(n, s);
    } else {
      stds = toDoubles(std);
      TSIR_RT_ASSIGN_OR_RETURN(double m, scalarArg(meanArg, "mean"));
      means.assign(n, m);
    }
  }
  return sampleNormal(means, stds, sizes, dtype);
}

} // namespace

void registerCombinatoricKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::combinations(Tensor self, int r=2, bool "
           "with_replacement=False) -> Tensor",
           bindKernel(combinations)},
          {"aten::cartesian_prod(Tensor[] tensors) -> Tensor",
           bindKernel(cartesianProd)},
          // Bare names: the kernels tell their overloads apart by argument
          // count and kind.
          {"aten::repeat_interleave",
           byArgumentCount(3, bindKernel(repeatInterleave),
                           bindKernel(repeatIndices))},
          {"aten::multinomial(Tensor self, int num_samples, bool "
           "replacement=False, *, Generator? generator=None) -> Tensor",
           bindKernel(multinomial)},
          {"aten::normal", byArgumentCount(8, bindKernel(normalOfSize),
                                           bindKernel(normalOfTensors))},
      });
}

} // namespace tsir::rt
