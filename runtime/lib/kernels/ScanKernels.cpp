//===- ScanKernels.cpp - Builtin scans along a dim: cum*, diff, trapezoid -===//
//
// cummax, cummin, cumprod, logcumsumexp, diff, trapz, trapezoid and
// cumulative_trapezoid: sequential scans along one dimension that tsir has
// no compiled form for. They run in Float64 (torch's CPU accumulation type
// for float) in torch's order: cummax/cummin move to a later equal value
// and stick to NaN, logcumsumexp adds with torch's log-add-exp.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <algorithm>
#include <cmath>

namespace tsir::rt {

using namespace data;

namespace {

/// Runs `scan(row_in, row_out)` over every row along `dim` of `values`
/// (sizes `sizes`), giving rows of `outSize` elements.
template <class Scan>
std::vector<double> scanRows(const std::vector<double> &values,
                             const std::vector<int64_t> &sizes, int64_t dim,
                             int64_t outSize, Scan scan) {
  DimSplit s = splitAt(sizes, dim);
  std::vector<double> out(s.outer * outSize * s.inner), in(s.size),
      result(outSize);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      for (int64_t k = 0; k < s.size; ++k)
        in[k] = values[(o * s.size + k) * s.inner + i];
      scan(in, result);
      for (int64_t k = 0; k < outSize; ++k)
        out[(o * outSize + k) * s.inner + i] = result[k];
    }
  return out;
}

/// cummax (`isMax`) or cummin of `self` along `dim`: (values, indices).
StatusOr<std::tuple<Tensor, Tensor>> cumMaxMin(const Tensor &self,
                                               int64_t dimArg, bool isMax) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  std::vector<double> values = toDoubles(self);
  std::vector<double> indices(values.size());
  DimSplit s = splitAt(self.sizes(), dim);
  std::vector<double> out(values.size());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      int64_t base = o * s.size * s.inner + i;
      double best = s.size ? values[base] : 0.0;
      int64_t at = 0;
      for (int64_t k = 0; k < s.size; ++k) {
        double v = values[base + k * s.inner];
        if (isNan(v) || (!isNan(best) && (isMax ? v >= best : v <= best))) {
          best = v;
          at = k;
        }
        out[base + k * s.inner] = best;
        indices[base + k * s.inner] = static_cast<double>(at);
      }
    }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor v, fromDoubles(out, self.sizes(), self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor i,
                           fromDoubles(indices, self.sizes(), DType::Int64));
  return std::make_tuple(v, i);
}

StatusOr<std::tuple<Tensor, Tensor>> cummax(Tensor self, int64_t dim) {
  return cumMaxMin(self, dim, /*isMax=*/true);
}

StatusOr<std::tuple<Tensor, Tensor>> cummin(Tensor self, int64_t dim) {
  return cumMaxMin(self, dim, /*isMax=*/false);
}

StatusOr<Tensor> cumprod(Tensor self, int64_t dimArg,
                         std::optional<DType> dtypeArg) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  DType fallback = isFloating(self.dtype()) ? self.dtype() : DType::Int64;
  DType dtype = dtypeArg.value_or(fallback);
  std::vector<double> out = scanRows(
      toDoubles(self.to(dtype)), self.sizes(), dim,
      self.dim() ? self.size(dim) : 1,
      [](const std::vector<double> &in, std::vector<double> &result) {
        double acc = 1.0;
        for (size_t k = 0; k < in.size(); ++k)
          result[k] = acc *= in[k];
      });
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromDoubles(out, self.sizes(), dtype));
  return result;
}

StatusOr<Tensor> logcumsumexp(Tensor self, int64_t dimArg) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  if (!isFloating(self.dtype()))
    return Status::error(std::string("\"logcumsumexp_out_cpu\" not "
                                     "implemented for '") +
                         dtypeTorchName(self.dtype()) + "'");
  std::vector<double> out = scanRows(
      toDoubles(self), self.sizes(), dim, self.dim() ? self.size(dim) : 1,
      [](const std::vector<double> &in, std::vector<double> &result) {
        double acc = -INFINITY;
        for (size_t k = 0; k < in.size(); ++k) {
          double x = in[k];
          double lo = std::min(acc, x), hi = std::max(acc, x);
          if (isNan(x) || isNan(acc))
            acc = NAN;
          else if (lo != hi || std::isfinite(lo))
            acc = hi + std::log1p(std::exp(lo - hi));
          else
            acc = x;
          result[k] = acc;
        }
      });
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(out, self.sizes(), self.dtype()));
  return result;
}

StatusOr<Tensor> diff(Tensor self, int64_t n, int64_t dimArg,
                      std::optional<Tensor> prependArg,
                      std::optional<Tensor> appendArg) {
  Tensor prepend = prependArg.value_or(Tensor());
  Tensor append = appendArg.value_or(Tensor());
  if (self.dim() == 0)
    return Status::error("diff expects input to be at least one-dimensional");
  if (n < 0)
    return Status::error("order must be non-negative but got " +
                         std::to_string(n));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, self.dim()));
  // cat(prepend, self, append) along dim, in the promoted dtype.
  DType dtype = self.dtype();
  std::vector<Tensor> parts;
  for (const Tensor &t : {prepend, self, append}) {
    if (!t.defined())
      continue;
    if (t.dim() != self.dim())
      return Status::error("diff expects prepend or append to be the same "
                           "dimension as input");
    for (int64_t d = 0; d < self.dim(); ++d)
      if (d != dim && t.size(d) != self.size(d))
        return Status::error("diff expects the shape of tensor to prepend or "
                             "append to match that of input except along the "
                             "differencing dimension");
    dtype = promoteTypes(dtype, t.dtype());
    parts.push_back(t);
  }
  DimSplit s = splitAt(self.sizes(), dim);
  int64_t length = 0;
  for (const Tensor &t : parts)
    length += t.size(dim);
  std::vector<double> joined(s.outer * length * s.inner);
  int64_t at = 0;
  for (const Tensor &t : parts) {
    std::vector<double> v = toDoubles(t);
    int64_t len = t.size(dim);
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t k = 0; k < len; ++k)
        for (int64_t i = 0; i < s.inner; ++i)
          joined[(o * length + at + k) * s.inner + i] =
              v[(o * len + k) * s.inner + i];
    at += len;
  }
  int64_t outLength = std::max<int64_t>(0, length - n);
  bool isBool = dtype == DType::Bool;
  std::vector<int64_t> sizes = self.sizes();
  sizes[dim] = length;
  std::vector<double> out = scanRows(
      joined, sizes, dim, outLength,
      [&](const std::vector<double> &in, std::vector<double> &result) {
        std::vector<double> cur = in;
        for (int64_t step = 0; step < n && !cur.empty(); ++step) {
          for (size_t k = 0; k + 1 < cur.size(); ++k)
            cur[k] = isBool ? double(cur[k + 1] != cur[k]) : cur[k + 1] - cur[k];
          cur.pop_back();
        }
        for (int64_t k = 0; k < outLength; ++k)
          result[k] = cur[k];
      });
  sizes[dim] = outLength;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromDoubles(out, sizes, dtype));
  return result;
}

/// trapz / trapezoid (cumulative or not) with spacing `dx` or sample
/// points `x`: `xOrDx` is the Tensor x or the Scalar dx (the overloads
/// torch tells apart).
StatusOr<Tensor> trapezoidOf(const Tensor &y, const Value &xOrDx,
                             int64_t dimArg, bool cumulative) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(dimArg, y.dim()));
  if (y.dim() == 0)
    return Status::error("trapezoid: input must have at least one dimension");
  DType dtype = isFloating(y.dtype()) ? y.dtype() : DType::Float32;
  int64_t length = y.size(dim);
  std::vector<double> xs;
  double dx = 1.0;
  if (xOrDx.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor x, requireTensor(xOrDx));
    if (isFloating(x.dtype()))
      dtype = isFloating(y.dtype()) ? promoteTypes(y.dtype(), x.dtype())
                                    : x.dtype();
    Tensor expanded;
    if (x.dim() == 1) {
      if (x.size(0) != length)
        return Status::error("trapezoid: There must be one `x` value for "
                             "each sample point");
      std::vector<int64_t> shape(y.dim(), 1);
      shape[dim] = length;
      TSIR_RT_ASSIGN_OR_RETURN(Tensor viewed, x.reshape(shape));
      TSIR_RT_ASSIGN_OR_RETURN(expanded, viewed.expand(y.sizes()));
    } else {
      StatusOr<Tensor> e = x.expand(y.sizes());
      if (!e.ok())
        return Status::error("trapezoid: x of shape " +
                             sizesToString(x.sizes()) +
                             " does not broadcast to y of shape " +
                             sizesToString(y.sizes()));
      expanded = *e;
    }
    xs = toDoubles(expanded.contiguous());
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(dx, scalarArg(xOrDx, "dx"));
  }
  std::vector<double> ys = toDoubles(y);
  DimSplit s = splitAt(y.sizes(), dim);
  int64_t outLength = cumulative ? std::max<int64_t>(0, length - 1) : 1;
  std::vector<double> out(s.outer * outLength * s.inner, 0.0);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      double acc = 0.0;
      for (int64_t k = 0; k + 1 < length; ++k) {
        int64_t a = (o * length + k) * s.inner + i, b = a + s.inner;
        double width = xs.empty() ? dx : xs[b] - xs[a];
        acc += width * (ys[a] + ys[b]) / 2.0;
        if (cumulative)
          out[(o * outLength + k) * s.inner + i] = acc;
      }
      if (!cumulative)
        out[o * s.inner + i] = acc;
    }
  std::vector<int64_t> sizes = y.sizes();
  if (cumulative)
    sizes[dim] = outLength;
  else
    sizes.erase(sizes.begin() + dim);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromDoubles(out, sizes, dtype));
  return result;
}

/// trapz and trapezoid (y, x or dx, dim).
StatusOr<Tensor> trapezoid(Tensor y, Value xOrDx, int64_t dim) {
  return trapezoidOf(y, xOrDx, dim, /*cumulative=*/false);
}

/// cumulative_trapezoid (y, x or dx, dim).
StatusOr<Tensor> cumulativeTrapezoid(Tensor y, Value xOrDx, int64_t dim) {
  return trapezoidOf(y, xOrDx, dim, /*cumulative=*/true);
}

} // namespace

void registerScanKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::cummax(Tensor self, int dim) -> (Tensor values, Tensor "
           "indices)",
           bindKernel(cummax)},
          {"aten::cummin(Tensor self, int dim) -> (Tensor values, Tensor "
           "indices)",
           bindKernel(cummin)},
          {"aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> "
           "Tensor",
           bindKernel(cumprod)},
          {"aten::logcumsumexp(Tensor self, int dim) -> Tensor",
           bindKernel(logcumsumexp)},
          {"aten::diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, "
           "Tensor? append=None) -> Tensor",
           bindKernel(diff)},
          // Bare names: each reads its x (Tensor) and dx (number) overloads.
          {"aten::trapz", bindKernel(trapezoid)},
          {"aten::trapezoid", bindKernel(trapezoid)},
          {"aten::cumulative_trapezoid", bindKernel(cumulativeTrapezoid)},
      });
}

} // namespace tsir::rt
