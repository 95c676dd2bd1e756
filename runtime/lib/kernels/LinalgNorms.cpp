//===- LinalgNorms.cpp - Norms and composite linear algebra kernels -------===//
//
// The third file of the linear algebra kernels (see LinalgKernels.cpp):
// what is built from reductions, matrix products and the other linalg
// kernels rather than from one LAPACK routine. linalg_vector_norm, the
// aten::norm overloads, frobenius_norm, linalg_matrix_norm, nuclear_norm,
// linalg_norm, linalg_cond, linalg_vecdot, linalg_cross/cross,
// linalg_multi_dot, linalg_matrix_power/matrix_power, linalg_matrix_exp/
// matrix_exp (Pade 13 with scaling and squaring), linalg_tensorinv,
// linalg_tensorsolve and linalg_vander. Reductions and products run in
// double and round once to the result's dtype; the kernels that need a
// decomposition (svdvals, inv, solve) call the registered ones.
//
//===----------------------------------------------------------------------===//

#include "LinalgSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <variant>

namespace tsir::rt {

using namespace linalg;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

StatusOr<Tensor> callOne(const char *name, std::vector<Value> inputs,
                         size_t index = 0) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> out,
                           callKernel(name, std::move(inputs)));
  if (out.size() <= index || !out[index].isTensor())
    return Status::error(std::string(name) + " returned no tensor");
  return out[index].toTensor();
}

/// Moves `dims` of `t` last (in the given order): the permuted tensor, the
/// kept sizes, and the product of the moved sizes.
struct Grouped {
  Tensor data; // Float64, contiguous: groups x groupSize
  std::vector<int64_t> keptSizes;
  std::vector<int64_t> keepdimSizes;
  int64_t groups = 1, groupSize = 1;
};

StatusOr<Grouped> groupDims(const Tensor &t, std::vector<int64_t> dims) {
  int64_t rank = t.dim();
  if (dims.empty())
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
  std::vector<bool> reduced(std::max<int64_t>(rank, 1), false);
  for (int64_t &d : dims) {
    TSIR_RT_ASSIGN_OR_RETURN(d, wrapDim(d, rank));
    if (reduced[d])
      return Status::error("dim " + std::to_string(d) +
                           " appears multiple times in the list of dims");
    reduced[d] = true;
  }
  Grouped g;
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d]) {
      perm.push_back(d);
      g.keptSizes.push_back(t.size(d));
      g.groups *= t.size(d);
    }
  for (int64_t d = 0; d < rank; ++d) {
    g.keepdimSizes.push_back(reduced[d] ? 1 : t.size(d));
  }
  for (int64_t d : dims)
    if (d < rank) {
      perm.push_back(d);
      g.groupSize *= t.size(d);
    }
  Tensor p = t;
  if (rank > 0) {
    TSIR_RT_ASSIGN_OR_RETURN(p, t.permute(perm));
  }
  g.data = p.to(DType::Float64).contiguous();
  return g;
}

double vectorNormOf(const double *x, int64_t n, double ord) {
  if (ord == kInf || ord == -kInf) {
    double best = ord > 0 ? 0.0 : kInf;
    for (int64_t i = 0; i < n; ++i) {
      double a = std::abs(x[i]);
      if (std::isnan(a))
        return a;
      best = ord > 0 ? std::max(best, a) : std::min(best, a);
    }
    return best;
  }
  double sum = 0;
  if (ord == 0) {
    for (int64_t i = 0; i < n; ++i)
      sum += x[i] != 0 ? 1 : 0;
    return sum;
  }
  if (ord == 1) {
    for (int64_t i = 0; i < n; ++i)
      sum += std::abs(x[i]);
    return sum;
  }
  if (ord == 2) {
    for (int64_t i = 0; i < n; ++i)
      sum += x[i] * x[i];
    return std::sqrt(sum);
  }
  for (int64_t i = 0; i < n; ++i)
    sum += std::pow(std::abs(x[i]), ord);
  return std::pow(sum, 1.0 / ord);
}

StatusOr<Tensor> vectorNorm(const Tensor &x, double ord,
                            const std::vector<int64_t> &dims, bool keepdim,
                            DType outType, const char *api) {
  if (!isFloating(x.dtype()))
    return Status::error(std::string(api) +
                         ": Expected a floating point or complex tensor as "
                         "input. Got " +
                         torchTypeName(x.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Grouped g, groupDims(x, dims));
  if (g.groupSize == 0 && ord < 0)
    return Status::error(std::string(api) +
                         " cannot compute the " + formatDouble(ord) +
                         " norm on an empty tensor because the operation "
                         "does not have an identity");
  std::vector<double> out(g.groups);
  const double *data = g.data.dataAs<double>();
  for (int64_t i = 0; i < g.groups; ++i)
    out[i] = vectorNormOf(data + i * g.groupSize, g.groupSize, ord);
  return storeVector(out, keepdim ? g.keepdimSizes : g.keptSizes, outType);
}

StatusOr<DType> normDType(const Tensor &x, std::optional<DType> dtype,
                          const char *api) {
  DType out = dtype.value_or(x.dtype());
  if (!isFloating(out))
    return Status::error(std::string(api) +
                         ": dtype should be floating point or complex. Got " +
                         torchTypeName(out) + " instead.");
  return out;
}

/// An `int[]?` of dims: None is every dim.
using Dims = std::optional<std::vector<int64_t>>;

/// linalg_vector_norm(self, ord, dim, keepdim, dtype).
StatusOr<Tensor> linalgVectorNorm(Tensor x, double ord, const Dims &dim,
                                  bool keepdim, std::optional<DType> dtype) {
  TSIR_RT_RETURN_IF_ERROR(checkFloating(x, "linalg.vector_norm"));
  TSIR_RT_ASSIGN_OR_RETURN(DType out,
                           normDType(x, dtype, "linalg.vector_norm"));
  return vectorNorm(x, ord, dim.value_or(std::vector<int64_t>()), keepdim, out,
                    "linalg.vector_norm");
}

/// The aten::norm overloads (p None is 2): the dtype argument, when the
/// overload has one, is checked before the input's.
StatusOr<Tensor> norm(const Tensor &x, std::optional<double> p, const Dims &dim,
                      bool keepdim, bool withDType,
                      std::optional<DType> dtype) {
  DType out = x.dtype();
  if (withDType) {
    TSIR_RT_ASSIGN_OR_RETURN(out, normDType(x, dtype, "norm"));
  }
  if (!isFloating(x.dtype()))
    return Status::error("norm(): input dtype should be either floating point "
                         "or complex. Got " +
                         torchTypeName(x.dtype()) + " instead.");
  return vectorNorm(x, p.value_or(2.0), dim.value_or(std::vector<int64_t>()),
                    keepdim, out, "norm");
}

/// norm.Scalar(self, p).
StatusOr<Tensor> normScalar(Tensor x, std::optional<double> p) {
  return norm(x, p, std::nullopt, false, false, std::nullopt);
}

/// norm.ScalarOpt_dim(self, p, dim, keepdim).
StatusOr<Tensor> normDim(Tensor x, std::optional<double> p, const Dims &dim,
                         bool keepdim) {
  return norm(x, p, dim, keepdim, false, std::nullopt);
}

/// norm.ScalarOpt_dim_dtype(self, p, dim, keepdim, dtype).
StatusOr<Tensor> normDimDType(Tensor x, std::optional<double> p,
                              const Dims &dim, bool keepdim,
                              std::optional<DType> dtype) {
  return norm(x, p, dim, keepdim, true, dtype);
}

/// norm.ScalarOpt_dtype(self, p, dtype).
StatusOr<Tensor> normWithDType(Tensor x, std::optional<double> p,
                               std::optional<DType> dtype) {
  return norm(x, p, std::nullopt, false, true, dtype);
}

/// frobenius_norm.dim(self, dim, keepdim).
StatusOr<Tensor> frobeniusNormDim(Tensor x, const Dims &dim, bool keepdim) {
  std::vector<int64_t> dims = dim.value_or(std::vector<int64_t>());
  if (dims.size() > 2)
    return Status::error("Expected at most 2 dimensions, but got " +
                         std::to_string(dims.size()) + " dimensions instead.");
  return vectorNorm(x, 2.0, dims, keepdim, x.dtype(), "frobenius_norm");
}

/// frobenius_norm(self): of every dim.
StatusOr<Tensor> frobeniusNorm(Tensor x) {
  return frobeniusNormDim(x, std::nullopt, false);
}

/// A matrix norm order: a number or "fro" / "nuc".
using Ord = std::variant<double, std::string>;

StatusOr<Tensor> matrixNorm(Tensor A, const Ord &ord, std::vector<int64_t> dims,
                            bool keepdim, std::optional<DType> dtype,
                            const char *api) {
  if (A.dim() < 2)
    return Status::error(std::string(api) +
                         ": The input tensor A must have at least 2 "
                         "dimensions.");
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  TSIR_RT_ASSIGN_OR_RETURN(DType out, normDType(A, dtype, api));
  if (dims.size() != 2)
    return Status::error(std::string(api) + ": dim must be a 2-tuple. Got " +
                         sizesToString(dims));
  for (int64_t &d : dims) {
    TSIR_RT_ASSIGN_OR_RETURN(d, wrapDim(d, A.dim()));
  }
  if (dims[0] == dims[1])
    return Status::error(std::string(api) +
                         ": dims must be different. Got (" +
                         std::to_string(dims[0]) + ", " +
                         std::to_string(dims[1]) + ")");
  if (out != A.dtype())
    A = A.to(out);
  std::vector<int64_t> keepSizes = A.sizes();
  keepSizes[dims[0]] = 1;
  keepSizes[dims[1]] = 1;
  if (const std::string *s = std::get_if<std::string>(&ord)) {
    if (*s == "fro") {
      return vectorNorm(A, 2.0, dims, keepdim, out, api);
    }
    if (*s != "nuc")
      return Status::error(std::string(api) + ": Order " + *s +
                           " not supported.");
  } else {
    double o = std::get<double>(ord);
    if (o != 2 && o != -2 && o != 1 && o != -1 && o != kInf && o != -kInf)
      return Status::error(std::string(api) + ": Order " + formatDouble(o) +
                           " not supported.");
  }
  // Move the two dims last: [batch..., rows, cols].
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < A.dim(); ++d)
    if (d != dims[0] && d != dims[1])
      perm.push_back(d);
  perm.push_back(dims[0]);
  perm.push_back(dims[1]);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor P, A.permute(perm));
  std::vector<int64_t> batch = leading(P);
  int64_t rows = P.size(-2), cols = P.size(-1);
  int64_t count = 1;
  for (int64_t s : batch)
    count *= s;
  std::vector<double> result(count, 0.0);
  bool spectral = std::holds_alternative<std::string>(ord) ||
                  std::abs(std::get<double>(ord)) == 2;
  if (spectral) {
    bool nuc = std::holds_alternative<std::string>(ord);
    if (P.numel() == 0 && !nuc)
      return Status::error(std::string(api) +
                           ": cannot compute the norm of an empty matrix");
    TSIR_RT_ASSIGN_OR_RETURN(Tensor S, callOne("aten::linalg_svdvals",
                                               {Value(P.contiguous()),
                                                Value::none()}));
    std::vector<double> s = doubles(S);
    int64_t k = std::min(rows, cols);
    for (int64_t b = 0; b < count; ++b) {
      const double *v = s.data() + b * k;
      if (nuc) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += v[l];
        result[b] = sum;
      } else {
        result[b] = std::get<double>(ord) > 0 ? v[0] : v[k - 1];
      }
    }
  } else {
    double o = std::get<double>(ord);
    bool columns = std::abs(o) == 1; // sum over rows, extreme over columns
    bool wantMax = o > 0;
    std::vector<double> a = doubles(P.contiguous());
    int64_t outer = columns ? cols : rows, inner = columns ? rows : cols;
    if (outer == 0 || (P.numel() == 0 && !wantMax))
      return Status::error(std::string(api) +
                           ": cannot compute the norm of an empty matrix");
    for (int64_t b = 0; b < count; ++b) {
      const double *m = a.data() + b * rows * cols;
      double best = wantMax ? -kInf : kInf;
      for (int64_t o2 = 0; o2 < outer; ++o2) {
        double sum = 0;
        for (int64_t i2 = 0; i2 < inner; ++i2)
          sum += std::abs(columns ? m[i2 * cols + o2] : m[o2 * cols + i2]);
        best = wantMax ? std::max(best, sum) : std::min(best, sum);
      }
      result[b] = best;
    }
  }
  if (keepdim)
    return storeVector(result, keepSizes, out);
  return storeVector(result, batch, out);
}

StatusOr<Ord> ordArg(const Value &v) {
  if (v.isString())
    return Ord(v.toStringRef());
  TSIR_RT_ASSIGN_OR_RETURN(double d, scalarArg(v, "ord"));
  return Ord(d);
}

/// linalg_matrix_norm(A, ord, dim, keepdim, dtype) and .str_ord: `ord` is
/// a number or a string.
StatusOr<Tensor> linalgMatrixNorm(Tensor A, Value ordV, const Dims &dim,
                                  bool keepdim, std::optional<DType> dtype) {
  TSIR_RT_ASSIGN_OR_RETURN(Ord ord, ordArg(ordV));
  return matrixNorm(A, ord, dim.value_or(std::vector<int64_t>()), keepdim,
                    dtype, "linalg.matrix_norm");
}

StatusOr<Tensor> nuclearNorm(const Tensor &A, std::vector<int64_t> dims,
                             bool keepdim) {
  return matrixNorm(A, Ord(std::string("nuc")), std::move(dims), keepdim,
                    std::nullopt, "linalg.matrix_norm");
}

/// nuclear_norm(self, keepdim): of a matrix.
StatusOr<Tensor> nuclearNormMatrix(Tensor A, bool keepdim) {
  if (A.dim() != 2)
    return Status::error("Expected a tensor with 2 dimensions, but got a "
                         "tensor with " +
                         std::to_string(A.dim()) + " dimension" +
                         (A.dim() == 1 ? "" : "s") + " instead.");
  return nuclearNorm(A, {0, 1}, keepdim);
}

/// nuclear_norm.dim(self, dim, keepdim).
StatusOr<Tensor> nuclearNormDim(Tensor A, const Dims &dim, bool keepdim) {
  return nuclearNorm(A, dim.value_or(std::vector<int64_t>()), keepdim);
}

/// linalg_norm(A, ord?, dim?, keepdim, dtype) and .ord_str: `ord` is None,
/// a number or a string.
StatusOr<Tensor> linalgNorm(Tensor X, Value ordV, const Dims &dim, bool keepdim,
                            std::optional<DType> dtype) {
  std::vector<int64_t> dims = dim.value_or(std::vector<int64_t>());
  bool hasDim = dim.has_value();
  if (hasDim && dims.size() != 1 && dims.size() != 2)
    return Status::error("linalg.norm: If dim is specified, it must be of "
                         "length 1 or 2. Got " +
                         sizesToString(dims));
  if (!hasDim && !ordV.isNone() && X.dim() != 1 && X.dim() != 2)
    return Status::error("linalg.norm: If dim is not specified but ord is, "
                         "the input must be 1D or 2D. Got " +
                         std::to_string(X.dim()) + "D.");
  if (ordV.isString() ||
      (!ordV.isNone() && ((hasDim && dims.size() == 2) ||
                          (!hasDim && X.dim() == 2)))) {
    TSIR_RT_ASSIGN_OR_RETURN(Ord ord, ordArg(ordV));
    std::vector<int64_t> mdims = hasDim ? dims : std::vector<int64_t>{0, 1};
    return matrixNorm(X, ord, mdims, keepdim, dtype, "linalg.norm");
  }
  double ord = 2.0;
  if (!ordV.isNone()) {
    TSIR_RT_ASSIGN_OR_RETURN(ord, scalarArg(ordV, "p"));
  }
  TSIR_RT_ASSIGN_OR_RETURN(DType out, normDType(X, dtype, "linalg.norm"));
  return vectorNorm(X, ord, dims, keepdim, out, "linalg.norm");
}

/// linalg_cond(A, p?) and linalg_cond.p_str(A, p): `p` is None, a number
/// or a string.
StatusOr<Tensor> linalgCond(Tensor A, Value p) {
  if (A.dim() < 2)
    return Status::error(
        "linalg.cond: The input tensor must have at least 2 dimensions.");
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "linalg.cond"));
  Ord ord = 2.0;
  if (!p.isNone()) {
    TSIR_RT_ASSIGN_OR_RETURN(ord, ordArg(p));
  }
  if (const std::string *s = std::get_if<std::string>(&ord)) {
    if (*s != "fro" && *s != "nuc")
      return Status::error("linalg.cond got an invalid norm type: " + *s);
  } else {
    double o = std::get<double>(ord);
    if (o != 2 && o != -2 && o != 1 && o != -1 && o != kInf && o != -kInf)
      return Status::error("linalg.cond got an invalid norm type: " +
                           formatDouble(o));
  }
  std::vector<int64_t> batch = leading(A);
  if (A.numel() == 0)
    return Tensor::zeros(batch, A.dtype());
  if (std::holds_alternative<double>(ord) &&
      std::abs(std::get<double>(ord)) == 2) {
    TSIR_RT_ASSIGN_OR_RETURN(
        Tensor S, callOne("aten::linalg_svdvals", {Value(A), Value::none()}));
    std::vector<double> s = doubles(S);
    int64_t k = S.size(-1);
    // torch divides in the input's dtype.
    std::vector<double> r(s.size() / k);
    for (size_t b = 0; b < r.size(); ++b) {
      double mx = s[b * k], mn = s[b * k + k - 1];
      r[b] = std::get<double>(ord) > 0 ? mx / mn : mn / mx;
    }
    return storeVector(r, batch, A.dtype());
  }
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, "linalg.cond"));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> invOut,
                           callKernel("aten::linalg_inv_ex",
                                      {Value(A), Value(false)}));
  Tensor inv = invOut[0].toTensor();
  std::vector<int> info;
  {
    Tensor i32 = invOut[1].toTensor().to(DType::Int32);
    info.assign(i32.dataAs<int32_t>(), i32.dataAs<int32_t>() + i32.numel());
  }
  std::vector<int64_t> dims = {-2, -1};
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor na, matrixNorm(A, ord, dims, false, std::nullopt, "linalg.cond"));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor ni, matrixNorm(inv, ord, dims, false,
                                                 std::nullopt, "linalg.cond"));
  std::vector<double> a = doubles(na), b = doubles(ni), r(a.size());
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = info[i] > 0 ? kInf
                       : static_cast<double>(static_cast<float>(a[i])) *
                             static_cast<double>(static_cast<float>(b[i]));
  if (A.dtype() == DType::Float64)
    for (size_t i = 0; i < r.size(); ++i)
      r[i] = info[i] > 0 ? kInf : a[i] * b[i];
  return storeVector(r, batch, A.dtype());
}

//===----------------------------------------------------------------------===//
// Elementwise products: vecdot, cross
//===----------------------------------------------------------------------===//

/// Both tensors broadcast to one shape, as contiguous Float64.
StatusOr<std::vector<int64_t>> broadcastPair(const Tensor &a, const Tensor &b,
                                             Tensor &ad, Tensor &bd) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           broadcastSizes(a.sizes(), b.sizes()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor ae, a.expand(shape));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor be, b.expand(shape));
  ad = ae.to(DType::Float64).contiguous();
  bd = be.to(DType::Float64).contiguous();
  return shape;
}

/// linalg_vecdot(x, y, dim).
StatusOr<Tensor> vecdot(Tensor x, Tensor y, int64_t dim) {
  if (x.dtype() != y.dtype())
    return Status::error("linalg.vecdot: Expected x and y to have the same "
                         "dtype, but found x of type " +
                         torchTypeName(x.dtype()) + " and y of type " +
                         torchTypeName(y.dtype()) + " instead");
  Tensor xd, yd;
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           broadcastPair(x, y, xd, yd));
  Tensor prod = Tensor::empty(shape, DType::Float64);
  const double *a = xd.dataAs<double>(), *b = yd.dataAs<double>();
  double *p = prod.dataAs<double>();
  for (int64_t i = 0; i < prod.numel(); ++i)
    p[i] = a[i] * b[i];
  TSIR_RT_ASSIGN_OR_RETURN(Grouped g, groupDims(prod, {dim}));
  std::vector<double> out(g.groups);
  const double *data = g.data.dataAs<double>();
  for (int64_t i = 0; i < g.groups; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < g.groupSize; ++j)
      sum += data[i * g.groupSize + j];
    out[i] = sum;
  }
  return storeVector(out, g.keptSizes, x.dtype());
}

/// cross(self, other, dim?): without a dim, the first of size 3.
StatusOr<Tensor> cross(Tensor a, Tensor b, std::optional<int64_t> dimArg) {
  if (a.dim() != b.dim())
    return Status::error("linalg.cross: inputs must have the same number of "
                         "dimensions.");
  Tensor ad, bd;
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           broadcastPair(a, b, ad, bd));
  int64_t dim = -1;
  if (!dimArg) {
    dim = -2;
    for (int64_t d = 0; d < a.dim(); ++d)
      if (a.size(d) == 3) {
        dim = d;
        break;
      }
    if (dim == -2)
      return Status::error("no dimension of size 3 in input");
  } else {
    dim = *dimArg;
  }
  TSIR_RT_ASSIGN_OR_RETURN(dim, wrapDim(dim, a.dim()));
  if (a.size(dim) != 3 || b.size(dim) != 3)
    return Status::error("linalg.cross: inputs dimension " +
                         std::to_string(dim) + " must have length 3. Got " +
                         std::to_string(a.size(dim)) + " and " +
                         std::to_string(b.size(dim)));
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  Tensor out = Tensor::empty(shape, DType::Float64);
  const double *x = ad.dataAs<double>(), *y = bd.dataAs<double>();
  double *o = out.dataAs<double>();
  for (int64_t i = 0; i < outer; ++i)
    for (int64_t j = 0; j < inner; ++j) {
      int64_t base = i * 3 * inner + j;
      double x0 = x[base], x1 = x[base + inner], x2 = x[base + 2 * inner];
      double y0 = y[base], y1 = y[base + inner], y2 = y[base + 2 * inner];
      o[base] = x1 * y2 - x2 * y1;
      o[base + inner] = x2 * y0 - x0 * y2;
      o[base + 2 * inner] = x0 * y1 - x1 * y0;
    }
  return out.to(a.dtype());
}

/// linalg_cross(self, other, dim).
StatusOr<Tensor> linalgCross(Tensor a, Tensor b, int64_t dim) {
  return cross(a, b, dim);
}

//===----------------------------------------------------------------------===//
// Products: multi_dot, matrix_power, matrix_exp
//===----------------------------------------------------------------------===//

/// a [batchA, m, k] @ b [batchB, k, n] with batches broadcast, in double,
/// rounded to `dtype`.
StatusOr<Tensor> bmm(const Tensor &a, const Tensor &b, DType dtype) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(a), leading(b)));
  int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  if (b.size(-2) != k)
    return Status::error("mat1 and mat2 shapes cannot be multiplied (" +
                         std::to_string(m) + "x" + std::to_string(k) + " and " +
                         std::to_string(b.size(-2)) + "x" +
                         std::to_string(n) + ")");
  TSIR_RT_ASSIGN_OR_RETURN(Tensor ae, a.expand(withDims(batch, {m, k})));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor be, b.expand(withDims(batch, {k, n})));
  Tensor ad = ae.to(DType::Float64).contiguous();
  Tensor bd = be.to(DType::Float64).contiguous();
  Tensor out = Tensor::empty(withDims(batch, {m, n}), DType::Float64);
  int64_t count = 1;
  for (int64_t s : batch)
    count *= s;
  for (int64_t i = 0; i < count; ++i)
    matmul(ad.dataAs<double>() + i * m * k, bd.dataAs<double>() + i * k * n,
           out.dataAs<double>() + i * m * n, m, k, n);
  return out.to(dtype);
}

/// linalg_multi_dot(Tensor[] tensors).
StatusOr<Tensor> multiDot(Value tensors) {
  if (!tensors.isList())
    return Status::error("linalg.multi_dot: expected a list of tensors");
  std::vector<Tensor> ts;
  for (const Value &v : tensors.toList()) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor t, requireTensor(v));
    ts.push_back(t);
  }
  size_t n = ts.size();
  if (n < 2)
    return Status::error("multi_dot(): expected at least 2 tensors but got " +
                         std::to_string(n));
  bool firstVec = ts[0].dim() == 1, lastVec = ts[n - 1].dim() == 1;
  if (ts[0].dim() != 1 && ts[0].dim() != 2)
    return Status::error("multi_dot(): the first tensor must be 1D or 2D but "
                         "got " +
                         std::to_string(ts[0].dim()) + "D");
  if (ts[n - 1].dim() != 1 && ts[n - 1].dim() != 2)
    return Status::error("multi_dot(): the last tensor must be 1D or 2D but "
                         "got " +
                         std::to_string(ts[n - 1].dim()) + "D");
  for (size_t i = 1; i + 1 < n; ++i)
    if (ts[i].dim() != 2)
      return Status::error("multi_dot(): tensor " + std::to_string(i) +
                           " must be 2D but got " +
                           std::to_string(ts[i].dim()) + "D");
  DType dtype = ts[0].dtype();
  for (size_t i = 1; i < n; ++i)
    if (ts[i].dtype() != dtype)
      return Status::error("multi_dot(): all tensors must have be the same "
                           "dtype but tensor 0 is " +
                           torchTypeName(dtype) + " and tensor " +
                           std::to_string(i) + " " +
                           torchTypeName(ts[i].dtype()));
  if (firstVec) {
    TSIR_RT_ASSIGN_OR_RETURN(ts[0], ts[0].unsqueeze(0));
  }
  if (lastVec) {
    TSIR_RT_ASSIGN_OR_RETURN(ts[n - 1], ts[n - 1].unsqueeze(-1));
  }
  for (size_t i = 0; i + 1 < n; ++i)
    if (ts[i].size(-1) != ts[i + 1].size(0))
      return Status::error(
          "multi_dot(): tensors " + std::to_string(i) + " and " +
          std::to_string(i + 1) + " with shapes " +
          sizesToString(ts[i].sizes()) + " and " +
          sizesToString(ts[i + 1].sizes()) + " cannot be multiplied");
  // The whole chain in double, rounded once.
  Tensor acc = ts[0].to(DType::Float64);
  for (size_t i = 1; i < n; ++i) {
    TSIR_RT_ASSIGN_OR_RETURN(acc, bmm(acc, ts[i], DType::Float64));
  }
  Tensor out = acc.to(dtype);
  if (firstVec && lastVec) {
    TSIR_RT_ASSIGN_OR_RETURN(out, out.view({}));
  } else if (firstVec) {
    TSIR_RT_ASSIGN_OR_RETURN(out, out.squeeze(0));
  } else if (lastVec) {
    TSIR_RT_ASSIGN_OR_RETURN(out, out.squeeze(-1));
  }
  return out;
}

Tensor identityLike(const Tensor &A) {
  int64_t n = A.size(-1);
  Tensor out = Tensor::zeros(A.sizes(), DType::Float64);
  double *d = out.dataAs<double>();
  for (int64_t b = 0; b < out.numel() / std::max<int64_t>(1, n * n); ++b)
    for (int64_t i = 0; i < n; ++i)
      d[b * n * n + i * n + i] = 1;
  return out.to(A.dtype());
}

/// linalg_matrix_power(A, n) and matrix_power: torch's square-and-multiply,
/// each product rounded to the dtype.
StatusOr<Tensor> matrixPower(Tensor A, int64_t n) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, "linalg.matrix_power"));
  if (n == 0)
    return identityLike(A);
  Tensor a = A.contiguous();
  if (n < 0) {
    if (!isFloating(A.dtype()))
      return Status::error("linalg.matrix_power: inverse of a non-floating "
                           "matrix (negative n)");
    TSIR_RT_ASSIGN_OR_RETURN(a, callOne("aten::linalg_inv", {Value(A)}));
    n = -n;
  }
  DType dtype = A.dtype();
  if (n == 1)
    return a.clone();
  if (n == 2 || n == 3) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor r, bmm(a, a, dtype));
    if (n == 3) {
      TSIR_RT_ASSIGN_OR_RETURN(r, bmm(r, a, dtype));
    }
    return r;
  }
  Tensor z, result;
  while (n > 0) {
    if (!z.defined()) {
      z = a;
    } else {
      TSIR_RT_ASSIGN_OR_RETURN(z, bmm(z, z, dtype));
    }
    if (n & 1) {
      if (!result.defined()) {
        result = z;
      } else {
        TSIR_RT_ASSIGN_OR_RETURN(result, bmm(result, z, dtype));
      }
    }
    n >>= 1;
  }
  return result.clone();
}

/// Solves A X = B (n x n, n x n, row-major doubles) by Gaussian
/// elimination with partial pivoting, in place in B.
void gaussSolve(std::vector<double> A, std::vector<double> &B, int64_t n) {
  for (int64_t c = 0; c < n; ++c) {
    int64_t p = c;
    for (int64_t r = c + 1; r < n; ++r)
      if (std::abs(A[r * n + c]) > std::abs(A[p * n + c]))
        p = r;
    if (p != c)
      for (int64_t j = 0; j < n; ++j) {
        std::swap(A[p * n + j], A[c * n + j]);
        std::swap(B[p * n + j], B[c * n + j]);
      }
    double d = A[c * n + c];
    for (int64_t r = c + 1; r < n; ++r) {
      double f = A[r * n + c] / d;
      if (f == 0)
        continue;
      for (int64_t j = c; j < n; ++j)
        A[r * n + j] -= f * A[c * n + j];
      for (int64_t j = 0; j < n; ++j)
        B[r * n + j] -= f * B[c * n + j];
    }
  }
  for (int64_t c = n - 1; c >= 0; --c) {
    for (int64_t j = 0; j < n; ++j) {
      double s = B[c * n + j];
      for (int64_t k = c + 1; k < n; ++k)
        s -= A[c * n + k] * B[k * n + j];
      B[c * n + j] = s / A[c * n + c];
    }
  }
}

/// exp of one n x n matrix (row-major doubles): Pade 13 with scaling and
/// squaring (Higham 2005).
std::vector<double> expm(const double *a, int64_t n) {
  static const double b[] = {64764752532480000.0, 32382376266240000.0,
                             7771770303897600.0,  1187353796428800.0,
                             129060195264000.0,   10559470521600.0,
                             670442572800.0,      33522128640.0,
                             1323241920.0,        40840800.0,
                             960960.0,            16380.0,
                             182.0,               1.0};
  size_t nn = static_cast<size_t>(n * n);
  std::vector<double> A(a, a + nn);
  double norm1 = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i)
      s += std::abs(A[i * n + j]);
    norm1 = std::max(norm1, s);
  }
  int s = 0;
  if (norm1 > 5.371920351148152)
    s = std::max(0, static_cast<int>(std::ceil(std::log2(norm1 / 5.371920351148152))));
  double scale = std::ldexp(1.0, -s);
  for (double &v : A)
    v *= scale;
  std::vector<double> A2(nn), A4(nn), A6(nn), tmp(nn), U(nn), V(nn);
  matmul(A.data(), A.data(), A2.data(), n, n, n);
  matmul(A2.data(), A2.data(), A4.data(), n, n, n);
  matmul(A4.data(), A2.data(), A6.data(), n, n, n);
  for (size_t i = 0; i < nn; ++i)
    tmp[i] = b[13] * A6[i] + b[11] * A4[i] + b[9] * A2[i];
  std::vector<double> inner(nn);
  matmul(A6.data(), tmp.data(), inner.data(), n, n, n);
  for (size_t i = 0; i < nn; ++i)
    inner[i] += b[7] * A6[i] + b[5] * A4[i] + b[3] * A2[i];
  for (int64_t i = 0; i < n; ++i)
    inner[i * n + i] += b[1];
  matmul(A.data(), inner.data(), U.data(), n, n, n);
  for (size_t i = 0; i < nn; ++i)
    tmp[i] = b[12] * A6[i] + b[10] * A4[i] + b[8] * A2[i];
  matmul(A6.data(), tmp.data(), V.data(), n, n, n);
  for (size_t i = 0; i < nn; ++i)
    V[i] += b[6] * A6[i] + b[4] * A4[i] + b[2] * A2[i];
  for (int64_t i = 0; i < n; ++i)
    V[i * n + i] += b[0];
  std::vector<double> P(nn), Q(nn);
  for (size_t i = 0; i < nn; ++i) {
    P[i] = V[i] + U[i];
    Q[i] = V[i] - U[i];
  }
  gaussSolve(Q, P, n);
  for (int i = 0; i < s; ++i) {
    matmul(P.data(), P.data(), tmp.data(), n, n, n);
    P.swap(tmp);
  }
  return P;
}

/// linalg_matrix_exp(self) and matrix_exp.
StatusOr<Tensor> matrixExp(Tensor A) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, "linalg.matrix_exp"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "linalg.matrix_exp"));
  int64_t n = A.size(-1);
  std::vector<double> a = doubles(A);
  Tensor out = Tensor::empty(A.sizes(), DType::Float64);
  double *o = out.dataAs<double>();
  int64_t count = n == 0 ? 0 : A.numel() / (n * n);
  for (int64_t b = 0; b < count; ++b) {
    std::vector<double> e = expm(a.data() + b * n * n, n);
    std::copy(e.begin(), e.end(), o + b * n * n);
  }
  return out.to(A.dtype());
}

//===----------------------------------------------------------------------===//
// tensorinv, tensorsolve, vander
//===----------------------------------------------------------------------===//

int64_t product(const std::vector<int64_t> &v, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i)
    p *= v[i];
  return p;
}

/// linalg_tensorinv(self, ind).
StatusOr<Tensor> tensorinv(Tensor A, int64_t ind) {
  if (ind <= 0)
    return Status::error("Expected a strictly positive integer for 'ind', "
                         "but got " +
                         std::to_string(ind));
  const std::vector<int64_t> &s = A.sizes();
  if (ind > A.dim())
    return Status::error("linalg.tensorinv: ind is larger than the number of "
                         "dimensions");
  int64_t p1 = product(s, 0, ind), p2 = product(s, ind, s.size());
  if (p1 != p2)
    return Status::error("Expected self to satisfy the requirement "
                         "prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                         "but got " +
                         std::to_string(p2) + " != " + std::to_string(p1));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor M, A.reshape({p1, p2}));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> out,
                           callKernel("aten::linalg_inv_ex",
                                      {Value(M.contiguous()), Value(false)}));
  Tensor info = out[1].toTensor().to(DType::Int64);
  if (info.dataAs<int64_t>()[0] > 0)
    return Status::error("Failed to invert the input tensor, because it is "
                         "singular.");
  std::vector<int64_t> shape(s.begin() + ind, s.end());
  shape.insert(shape.end(), s.begin(), s.begin() + ind);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor r, out[0].toTensor().reshape(shape));
  return r.contiguous();
}

/// linalg_tensorsolve(self, other, dims).
StatusOr<Tensor> tensorsolve(Tensor A, Tensor B, const Dims &dimsArg) {
  std::vector<int64_t> dims = dimsArg.value_or(std::vector<int64_t>());
  Tensor a = A;
  if (!dims.empty()) {
    std::vector<bool> moved(A.dim(), false);
    for (int64_t &d : dims) {
      TSIR_RT_ASSIGN_OR_RETURN(d, wrapDim(d, A.dim()));
      moved[d] = true;
    }
    std::vector<int64_t> perm;
    for (int64_t d = 0; d < A.dim(); ++d)
      if (!moved[d])
        perm.push_back(d);
    perm.insert(perm.end(), dims.begin(), dims.end());
    TSIR_RT_ASSIGN_OR_RETURN(a, A.permute(perm));
  }
  int64_t nd = B.dim();
  if (nd > a.dim())
    return Status::error("linalg.tensorsolve: other has more dimensions than "
                         "self");
  std::vector<int64_t> resultShape(a.sizes().begin() + nd, a.sizes().end());
  int64_t resultProduct = product(resultShape, 0, resultShape.size());
  int64_t otherProduct = B.numel();
  if (resultProduct != otherProduct)
    return Status::error("Expected self to satisfy the requirement "
                         "prod(self.shape[other.ndim:]) == "
                         "prod(self.shape[:other.ndim]), but got " +
                         std::to_string(resultProduct) + " != " +
                         std::to_string(otherProduct));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor M, a.reshape({otherProduct, resultProduct}));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor v, B.reshape({otherProduct}));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor x, callOne("aten::linalg_solve", {Value(M.contiguous()),
                                               Value(v.contiguous()),
                                               Value(true)}));
  return x.reshape(resultShape);
}

/// linalg_vander(x, N): columns x^0 .. x^(N-1), as torch's cumprod.
StatusOr<Tensor> vander(Tensor x, std::optional<int64_t> NArg) {
  if (x.dim() == 0) {
    TSIR_RT_ASSIGN_OR_RETURN(x, x.reshape({1}));
  }
  int64_t N = NArg.value_or(x.size(-1));
  if (N <= 1)
    return Status::error("N must be greater than 1.");
  if (x.dtype() == DType::Bool)
    return Status::error("linalg.vander: bool tensors are not supported");
  std::vector<int64_t> shape = x.sizes();
  shape.push_back(N);
  int64_t count = x.numel();
  if (isFloating(x.dtype())) {
    // Products rounded to the dtype step by step, as cumprod does.
    Tensor xd = x.to(DType::Float64).contiguous();
    Tensor out = Tensor::empty(shape, DType::Float64);
    double *o = out.dataAs<double>();
    bool single = x.dtype() == DType::Float32;
    for (int64_t i = 0; i < count; ++i) {
      double v = xd.dataAs<double>()[i], p = 1;
      for (int64_t j = 0; j < N; ++j) {
        o[i * N + j] = p;
        p = p * v;
        if (single)
          p = static_cast<float>(p);
      }
    }
    return out.to(x.dtype());
  }
  Tensor xi = x.to(DType::Int64).contiguous();
  Tensor out = Tensor::empty(shape, DType::Int64);
  int64_t *o = out.dataAs<int64_t>();
  for (int64_t i = 0; i < count; ++i) {
    uint64_t v = static_cast<uint64_t>(xi.dataAs<int64_t>()[i]), p = 1;
    for (int64_t j = 0; j < N; ++j) {
      o[i * N + j] = static_cast<int64_t>(p);
      p *= v;
    }
  }
  return out.to(x.dtype());
}

} // namespace

void registerLinalgNormKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? "
           "dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
           bindKernel(linalgVectorNorm)},
          {"aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor",
           bindKernel(normScalar)},
          {"aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool "
           "keepdim=False) -> Tensor",
           bindKernel(normDim)},
          {"aten::norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, "
           "bool keepdim, *, ScalarType dtype) -> Tensor",
           bindKernel(normDimDType)},
          {"aten::norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType "
           "dtype) -> Tensor",
           bindKernel(normWithDType)},
          // The bare names serve graph nodes whose overload the importer left
          // open: the stack holds exactly the node's arguments, so their count
          // picks the overload.
          {"aten::norm",
           [scalar = bindKernel(normScalar),
            withDType = bindKernel(normWithDType), dim = bindKernel(normDim),
            dimDType = bindKernel(normDimDType)](Stack &s) {
             switch (s.size()) {
             case 2:
               return scalar(s);
             case 3:
               return withDType(s);
             case 4:
               return dim(s);
             default:
               return dimDType(s);
             }
           }},
          {"aten::frobenius_norm(Tensor self) -> Tensor",
           byArgumentCount(3, bindKernel(frobeniusNormDim),
                           bindKernel(frobeniusNorm))},
          {"aten::frobenius_norm.dim(Tensor self, int[1] dim, bool "
           "keepdim=False) -> Tensor",
           bindKernel(frobeniusNormDim)},
          {"aten::nuclear_norm(Tensor self, bool keepdim=False) -> Tensor",
           byArgumentCount(3, bindKernel(nuclearNormDim),
                           bindKernel(nuclearNormMatrix))},
          {"aten::nuclear_norm.dim(Tensor self, int[2] dim, bool "
           "keepdim=False) -> Tensor",
           bindKernel(nuclearNormDim)},
          {"aten::linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2, "
           "-1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
           bindKernel(linalgMatrixNorm)},
          {"aten::linalg_matrix_norm.str_ord(Tensor self, str ord=\"fro\", "
           "int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) "
           "-> Tensor",
           bindKernel(linalgMatrixNorm)},
          {"aten::linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, "
           "bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
           bindKernel(linalgNorm)},
          {"aten::linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, "
           "bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
           bindKernel(linalgNorm)},
          {"aten::linalg_cond(Tensor self, Scalar? p=None) -> Tensor",
           bindKernel(linalgCond)},
          {"aten::linalg_cond.p_str(Tensor self, str p) -> Tensor",
           bindKernel(linalgCond)},
          {"aten::linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor",
           bindKernel(vecdot)},
          {"aten::linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> "
           "Tensor",
           bindKernel(linalgCross)},
          {"aten::cross(Tensor self, Tensor other, int? dim=None) -> Tensor",
           bindKernel(cross)},
          {"aten::linalg_multi_dot(Tensor[] tensors) -> Tensor",
           bindKernel(multiDot)},
          {"aten::linalg_matrix_power(Tensor self, int n) -> Tensor",
           bindKernel(matrixPower)},
          {"aten::matrix_power(Tensor self, int n) -> Tensor",
           bindKernel(matrixPower)},
          {"aten::linalg_matrix_exp(Tensor self) -> Tensor",
           bindKernel(matrixExp)},
          {"aten::matrix_exp(Tensor self) -> Tensor", bindKernel(matrixExp)},
          {"aten::linalg_tensorinv(Tensor self, int ind=2) -> Tensor",
           bindKernel(tensorinv)},
          {"aten::linalg_tensorsolve(Tensor self, Tensor other, int[]? "
           "dims=None) -> Tensor",
           bindKernel(tensorsolve)},
          {"aten::linalg_vander(Tensor x, *, int? N=None) -> Tensor",
           bindKernel(vander)},
      });
}

} // namespace tsir::rt
