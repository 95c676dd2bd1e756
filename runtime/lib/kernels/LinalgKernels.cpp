//===- LinalgKernels.cpp - Linear algebra kernels: LU, solve, Cholesky ----===//
//
// The linear algebra family backed by LAPACK (loaded at run time, see
// Lapack.h), split in three files: this one holds what builds on LU and
// Cholesky factorizations (det, slogdet, logdet, inv, solve, lu_factor,
// lu, lu_unpack, lu_solve, triangular solves, cholesky, cholesky_solve,
// cholesky_inverse) and the shared helpers of LinalgSupport.h;
// LinalgDecompositions.cpp holds QR, SVD, eigh, lstsq, pinv, rank and LDL;
// LinalgNorms.cpp the norms and the composite ops. registerLinalgKernels
// registers all three.
//
// As torch does, a contiguous (row-major) matrix A is handed to LAPACK as
// the column-major matrix A^T where that saves a copy (solve, inv), so the
// roundings match torch's.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "LinalgSupport.h"

#include <cmath>
#include <limits>

namespace tsir::rt {
namespace linalg {

std::string torchTypeName(DType dtype) {
  switch (dtype) {
  case DType::Float32:
    return "Float";
  case DType::Float64:
    return "Double";
  case DType::Float16:
    return "Half";
  case DType::BFloat16:
    return "BFloat16";
  case DType::Int64:
    return "Long";
  case DType::Int32:
    return "Int";
  case DType::Int16:
    return "Short";
  case DType::Int8:
    return "Char";
  case DType::UInt8:
    return "Byte";
  case DType::Bool:
    return "Bool";
  }
  return "unknown";
}

Status checkFloating(const Tensor &t, const std::string &op) {
  if (t.dtype() == DType::Float32 || t.dtype() == DType::Float64)
    return Status::ok();
  if (t.dtype() == DType::Float16 || t.dtype() == DType::BFloat16)
    return Status::error(op + ": Low precision dtypes not supported. Got " +
                         torchTypeName(t.dtype()));
  return Status::error(op +
                       ": Expected a floating point or complex tensor as "
                       "input. Got " +
                       torchTypeName(t.dtype()));
}

Status checkMatrix(const Tensor &t, const std::string &op,
                   const std::string &name) {
  if (t.dim() < 2)
    return Status::error(op + ": The input tensor " + name +
                         " must have at least 2 dimensions.");
  return Status::ok();
}

Status checkSquare(const Tensor &t, const std::string &op,
                   const std::string &name) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(t, op, name));
  if (t.size(-1) != t.size(-2))
    return Status::error(op + ": " + name +
                         " must be batches of square matrices, but they are " +
                         std::to_string(t.size(-2)) + " by " +
                         std::to_string(t.size(-1)) + " matrices");
  return Status::ok();
}

Tensor storeInts(const std::vector<int> &data, std::vector<int64_t> sizes) {
  Tensor out = Tensor::empty(std::move(sizes), DType::Int32);
  int32_t *dst = out.dataAs<int32_t>();
  for (size_t i = 0; i < data.size(); ++i)
    dst[i] = data[i];
  return out;
}

std::vector<double> doubles(const Tensor &t) {
  Tensor c = t.to(DType::Float64);
  const double *p = c.dataAs<double>();
  return std::vector<double>(p, p + c.numel());
}

std::vector<int64_t> leading(const Tensor &t, int64_t k) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end() - k);
}

std::vector<int64_t> withDims(std::vector<int64_t> shape,
                              std::initializer_list<int64_t> dims) {
  shape.insert(shape.end(), dims.begin(), dims.end());
  return shape;
}

Status infoError(const std::string &api, const std::string &kind, int info,
                 int64_t b, bool isMatrix) {
  std::string prefix =
      api + ": " +
      (isMatrix ? "" : "(Batch element " + std::to_string(b) + "): ");
  std::string n = std::to_string(info);
  if (kind == "inv")
    return Status::error(prefix + "The diagonal element " + n +
                         " is zero, the inversion could not be completed "
                         "because the input matrix is singular.");
  if (kind == "solve")
    return Status::error(prefix + "The solver failed because the input "
                                  "matrix is singular.");
  if (kind == "cholesky")
    return Status::error(prefix +
                         "The factorization could not be completed because "
                         "the input is not positive-definite (the leading "
                         "minor of order " +
                         n + " is not positive-definite).");
  if (kind == "lu_factor")
    return Status::error(prefix + "U[" + n + "," + n +
                         "] is zero and using it on lu_solve would result in "
                         "a division by zero. If you still want to perform "
                         "the factorization, consider calling linalg.lu(A, "
                         "pivot) or linalg.lu_factor_ex(A, pivot)");
  if (kind == "eigh")
    return Status::error(prefix +
                         "The algorithm failed to converge because the input "
                         "matrix is ill-conditioned or has too many repeated "
                         "eigenvalues (error code: " +
                         n + ").");
  if (kind == "svd")
    return Status::error(prefix +
                         "The algorithm failed to converge because the input "
                         "matrix is ill-conditioned or has too many repeated "
                         "singular values (error code: " +
                         n + ").");
  return Status::error(prefix + "The factorization could not be completed "
                                "(LAPACK info " +
                       n + ")");
}

void matmul(const double *a, const double *b, double *c, int64_t m, int64_t k,
            int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum += a[i * k + l] * b[l * n + j];
      c[i * n + j] = sum;
    }
}

} // namespace linalg

using namespace linalg;

namespace {

//===----------------------------------------------------------------------===//
// LU: det, slogdet, logdet, lu_factor, lu, lu_unpack
//===----------------------------------------------------------------------===//

/// getrf of each matrix of `lu` in place: its pivots (min(m, n) a
/// matrix) and LAPACK's info.
template <class T>
void factorEach(const lapack::Routines<T> &L, Mats<T> &lu,
                std::vector<int> &pivots, std::vector<int> &info) {
  int m = static_cast<int>(lu.rows), n = static_cast<int>(lu.cols);
  int k = std::min(m, n);
  int64_t count = lu.count();
  pivots.assign(static_cast<size_t>(count * k), 0);
  info.assign(static_cast<size_t>(count), 0);
  int lda = lu.ld();
  for (int64_t b = 0; b < count; ++b)
    L.getrf(&m, &n, lu.at(b), &lda, pivots.data() + b * k, &info[b]);
}

/// LU factors of the buffer of A read as a column-major matrix, i.e. of
/// A^T for a row-major A (what torch factors for det and solve): `lu` holds
/// the factors of each transposed matrix, `pivots` 1-based row swaps.
template <class T>
Status luOfTransposed(const Tensor &A, Mats<T> &lu, std::vector<int> &pivots,
                      std::vector<int> &info) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  Tensor c = A.to(dtypeOf<T>());
  lu = zeroMats<T>(leading(A), A.size(-1), A.size(-2));
  const T *src = c.template dataAs<T>();
  std::copy(src, src + lu.data.size(), lu.data.begin());
  factorEach(*L, lu, pivots, info);
  return Status::ok();
}

/// LU of A itself (column-major copy), as lu_factor returns it.
template <class T>
Status luOf(const Tensor &A, Mats<T> &lu, std::vector<int> &pivots,
            std::vector<int> &info) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  lu = loadMats<T>(A);
  factorEach(*L, lu, pivots, info);
  return Status::ok();
}

/// Each matrix's determinant, the sign and log|det| of slogdet, and logdet
/// (NaN where the determinant is negative).
struct Determinants {
  Tensor det, sign, logabsdet, logdet;
};

template <class T> StatusOr<Determinants> detImpl(const Tensor &A) {
  Mats<T> lu;
  std::vector<int> pivots, info;
  TSIR_RT_RETURN_IF_ERROR(luOfTransposed<T>(A, lu, pivots, info));
  int64_t n = lu.rows, count = lu.count();
  std::vector<T> det(count), sign(count), logabs(count);
  for (int64_t b = 0; b < count; ++b) {
    T prod = 1, sgn = 1, sum = 0;
    bool odd = false;
    for (int64_t i = 0; i < n; ++i) {
      T d = lu(b, i, i);
      prod *= d;
      sgn *= d > 0 ? T(1) : (d < 0 ? T(-1) : T(0));
      sum += std::log(std::abs(d));
      if (pivots[b * n + i] != i + 1)
        odd = !odd;
    }
    det[b] = odd ? -prod : prod;
    sign[b] = odd ? -sgn : sgn;
    logabs[b] = sum;
  }
  std::vector<int64_t> batch = leading(A);
  Determinants d;
  d.det = storeVector(det, batch, A.dtype());
  d.sign = storeVector(sign, batch, A.dtype());
  d.logabsdet = storeVector(logabs, batch, A.dtype());
  for (int64_t b = 0; b < count; ++b)
    if (sign[b] == T(-1))
      logabs[b] = std::numeric_limits<T>::quiet_NaN();
  d.logdet = storeVector(logabs, batch, A.dtype());
  return d;
}

StatusOr<Determinants> determinants(const Tensor &A, const char *op) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, op));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, op));
  return TSIR_LINALG_DISPATCH(A.dtype(), detImpl, A);
}

/// linalg_det(A) and det(self).
StatusOr<Tensor> det(Tensor A) {
  TSIR_RT_ASSIGN_OR_RETURN(Determinants d, determinants(A, "linalg.det"));
  return d.det;
}

/// linalg_slogdet(A) and slogdet(self).
StatusOr<std::tuple<Tensor, Tensor>> slogdet(Tensor A) {
  TSIR_RT_ASSIGN_OR_RETURN(Determinants d, determinants(A, "linalg.slogdet"));
  return std::make_tuple(d.sign, d.logabsdet);
}

StatusOr<Tensor> logdet(Tensor A) {
  TSIR_RT_ASSIGN_OR_RETURN(Determinants d, determinants(A, "logdet"));
  return d.logdet;
}

/// The permutation matrix P (m x m) of A = P L U from 1-based pivots.
template <class T>
void permutationFromPivots(const int *pivots, int64_t k, int64_t m, T *P) {
  std::vector<int64_t> perm(m);
  for (int64_t i = 0; i < m; ++i)
    perm[i] = i;
  for (int64_t i = 0; i < k; ++i)
    std::swap(perm[i], perm[pivots[i] - 1]);
  // Column-major P: P[perm[i], i] = 1.
  for (int64_t i = 0; i < m * m; ++i)
    P[i] = 0;
  for (int64_t i = 0; i < m; ++i)
    P[i * m + perm[i]] = 1;
}

/// L (m x k, unit lower) and U (k x n) of packed LU factors.
template <class T>
void unpackLU(const Mats<T> &lu, Mats<T> &Lm, Mats<T> &U) {
  int64_t m = lu.rows, n = lu.cols, k = std::min(m, n);
  Lm = zeroMats<T>(lu.batch, m, k);
  U = zeroMats<T>(lu.batch, k, n);
  for (int64_t b = 0; b < lu.count(); ++b) {
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = 0; i < m; ++i)
        Lm(b, i, j) = i > j ? lu(b, i, j) : (i == j ? T(1) : T(0));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < k && i <= j; ++i)
        U(b, i, j) = lu(b, i, j);
  }
}

/// LU, pivots and info.
template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
luFactorImpl(const Tensor &A, bool checkErrors, const char *api) {
  Mats<T> lu;
  std::vector<int> pivots, info;
  TSIR_RT_RETURN_IF_ERROR(luOf<T>(A, lu, pivots, info));
  if (checkErrors)
    for (int64_t b = 0; b < lu.count(); ++b)
      if (info[b] > 0)
        return infoError(api, "lu_factor", info[b], b, A.dim() == 2);
  int64_t k = std::min(lu.rows, lu.cols);
  return std::make_tuple(storeMats(lu, A.dtype()),
                         storeInts(pivots, withDims(leading(A), {k})),
                         storeInts(info, leading(A)));
}

StatusOr<std::tuple<Tensor, Tensor, Tensor>>
luFactor(const Tensor &A, bool pivot, bool check, const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (!pivot)
    return Status::error(std::string(api) +
                         ": LU without pivoting is not implemented on the CPU");
  return TSIR_LINALG_DISPATCH(A.dtype(), luFactorImpl, A, check, api);
}

/// linalg_lu_factor(A, pivot): the errors always checked.
StatusOr<std::tuple<Tensor, Tensor>> linalgLuFactor(Tensor A, bool pivot) {
  TSIR_RT_ASSIGN_OR_RETURN(auto factors,
                           luFactor(A, pivot, true, "torch.linalg.lu_factor"));
  return std::make_tuple(std::get<0>(factors), std::get<1>(factors));
}

/// linalg_lu_factor_ex(A, pivot, check_errors).
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
linalgLuFactorEx(Tensor A, bool pivot, bool check) {
  return luFactor(A, pivot, check, "torch.linalg.lu_factor_ex");
}

/// _lu_with_info(self, pivot, check_errors).
StatusOr<std::tuple<Tensor, Tensor, Tensor>> luWithInfo(Tensor A, bool pivot,
                                                        bool check) {
  return luFactor(A, pivot, check, "torch.lu");
}

/// P, L and U (empty tensors for what is not unpacked).
template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
luUnpackImpl(const Mats<T> &lu, const Tensor &pivotsT, bool unpackData,
             bool unpackPivots, DType dtype) {
  int64_t m = lu.rows, n = lu.cols, k = std::min(m, n);
  Tensor P = Tensor::zeros({0}, dtype), Lt = Tensor::zeros({0}, dtype),
         U = Tensor::zeros({0}, dtype);
  if (unpackPivots) {
    Mats<T> Pm = zeroMats<T>(lu.batch, m, m);
    Tensor piv = pivotsT.to(DType::Int32);
    const int32_t *p = piv.dataAs<int32_t>();
    if (piv.numel() != lu.count() * k)
      return Status::error("lu_unpack: the pivots' shape does not match LU's");
    std::vector<int> pv(p, p + piv.numel());
    for (int64_t i = 0; i < (int64_t)pv.size(); ++i)
      if (pv[i] < 1 || pv[i] > m)
        return Status::error("lu_unpack: pivots out of range");
    for (int64_t b = 0; b < lu.count(); ++b)
      permutationFromPivots(pv.data() + b * k, k, m, Pm.at(b));
    P = storeMats(Pm, dtype);
  }
  if (unpackData) {
    Mats<T> Lm, Um;
    unpackLU(lu, Lm, Um);
    Lt = storeMats(Lm, dtype);
    U = storeMats(Um, dtype);
  }
  return std::make_tuple(P, Lt, U);
}

template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
luUnpackDispatch(const Tensor &LU, const Tensor &pivots, bool unpackData,
                 bool unpackPivots) {
  return luUnpackImpl<T>(loadMats<T>(LU), pivots, unpackData, unpackPivots,
                         LU.dtype());
}

/// lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots).
StatusOr<std::tuple<Tensor, Tensor, Tensor>> luUnpack(Tensor LU, Tensor pivots,
                                                      bool data, bool piv) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(LU, "torch.lu_unpack", "LU_data"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(LU, "torch.lu_unpack"));
  if (isFloating(pivots.dtype()))
    return Status::error("torch.lu_unpack: LU_pivots is expected to be a "
                         "contiguous tensor of torch.int32 dtype.");
  return TSIR_LINALG_DISPATCH(LU.dtype(), luUnpackDispatch, LU, pivots, data,
                              piv);
}

template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor>> linalgLuImpl(const Tensor &A) {
  Mats<T> lu;
  std::vector<int> pivots, info;
  TSIR_RT_RETURN_IF_ERROR(luOf<T>(A, lu, pivots, info));
  Tensor piv = storeInts(
      pivots, withDims(leading(A), {std::min(lu.rows, lu.cols)}));
  return luUnpackImpl<T>(lu, piv, true, true, A.dtype());
}

/// linalg_lu(A, pivot).
StatusOr<std::tuple<Tensor, Tensor, Tensor>> linalgLu(Tensor A, bool pivot) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, "linalg.lu"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "linalg.lu"));
  if (!pivot)
    return Status::error(
        "linalg.lu: LU without pivoting is not implemented on the CPU");
  return TSIR_LINALG_DISPATCH(A.dtype(), linalgLuImpl, A);
}

//===----------------------------------------------------------------------===//
// Solving: solve, inv, lu_solve
//===----------------------------------------------------------------------===//

/// Solves with the factors of `lu` (factors of M, column-major) and
/// `pivots`: op(M) X = B for column-major B (rows x nrhs), in place.
template <class T>
Status getrsBatch(const Mats<T> &lu, const std::vector<int> &pivots,
                  Mats<T> &B, char trans) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  int n = static_cast<int>(lu.rows), nrhs = static_cast<int>(B.cols);
  int lda = lu.ld(), ldb = B.ld(), info = 0;
  if (n == 0 || nrhs == 0)
    return Status::ok();
  for (int64_t b = 0; b < B.count(); ++b)
    L->getrs(&trans, &n, &nrhs, lu.at(b), &lda, pivots.data() + b * n,
             B.at(b), &ldb, &info, 1);
  return Status::ok();
}

/// Solves A X = B (left) or X A = B for matrices A [batchA, n, n] and B
/// [batchB, n, k] ([batchB, k, n] right), batches broadcast. Returns X and
/// LAPACK's info per batch element.
template <class T>
StatusOr<Tensor> solveMatrices(const Tensor &A, const Tensor &B, bool left,
                               std::vector<int> &info) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(A), leading(B)));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor Ae,
                           A.expand(withDims(batch, {A.size(-2), A.size(-1)})));
  Mats<T> lu;
  std::vector<int> pivots;
  // M = A^T (column-major view of row-major A), as torch factors it.
  TSIR_RT_RETURN_IF_ERROR(luOfTransposed<T>(Ae, lu, pivots, info));
  if (left) {
    // A X = B <=> M^T X = B.
    TSIR_RT_ASSIGN_OR_RETURN(Mats<T> X, loadMatsExpanded<T>(B, batch));
    TSIR_RT_RETURN_IF_ERROR(getrsBatch(lu, pivots, X, 'T'));
    return storeMats(X, A.dtype());
  }
  // X A = B <=> A^T X^T = B^T <=> M X^T = B^T; B^T column-major is B's
  // row-major buffer.
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor Be, B.expand(withDims(batch, {B.size(-2), B.size(-1)})));
  Tensor Bc = Be.to(dtypeOf<T>()).contiguous();
  Mats<T> Xt = zeroMats<T>(batch, B.size(-1), B.size(-2));
  const T *src = Bc.template dataAs<T>();
  std::copy(src, src + Xt.data.size(), Xt.data.begin());
  TSIR_RT_RETURN_IF_ERROR(getrsBatch(lu, pivots, Xt, 'N'));
  Tensor out = Tensor::empty(withDims(batch, {B.size(-2), B.size(-1)}),
                             dtypeOf<T>());
  std::copy(Xt.data.begin(), Xt.data.end(), out.template dataAs<T>());
  return out.to(A.dtype());
}

/// X and info of linalg_solve(A, B, left) and linalg_solve_ex(A, B, left,
/// check_errors).
template <class T>
StatusOr<std::tuple<Tensor, Tensor>> solveImpl(const Tensor &A, const Tensor &B,
                                               bool left, bool check) {
  const char *api = "torch.linalg.solve";
  // B is a vector (batch) when it is 1-d or A's shape without its last
  // dimension.
  bool vectorCase = B.dim() == 1;
  if (!vectorCase && B.dim() == A.dim() - 1) {
    std::vector<int64_t> expect(A.sizes().begin(), A.sizes().end() - 1);
    vectorCase = B.sizes() == expect;
  }
  Tensor Bm = B;
  if (vectorCase) {
    TSIR_RT_ASSIGN_OR_RETURN(Bm, B.unsqueeze(left ? -1 : -2));
  }
  if (Bm.dim() < 2)
    return Status::error(std::string(api) +
                         ": The input tensor B must have at least 2 "
                         "dimensions.");
  int64_t n = A.size(-1);
  if ((left ? Bm.size(-2) : Bm.size(-1)) != n)
    return Status::error(
        std::string(api) + ": Incompatible shapes of A and B for the equation " +
        (left ? "AX = B" : "XA = B") + " (" + sizesToString(A.sizes()) +
        " and " + sizesToString(B.sizes()) + ")");
  std::vector<int> info;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor X, solveMatrices<T>(A, Bm, left, info));
  std::vector<int64_t> batch(X.sizes().begin(), X.sizes().end() - 2);
  if (check)
    for (size_t b = 0; b < info.size(); ++b)
      if (info[b] > 0)
        return infoError(api, "solve", info[b], b, A.dim() == 2);
  if (vectorCase) {
    TSIR_RT_ASSIGN_OR_RETURN(X, X.squeeze(left ? -1 : -2));
  }
  // info has A's batch shape broadcast with B's.
  return std::make_tuple(X, storeInts(info, batch));
}

StatusOr<std::tuple<Tensor, Tensor>> solve(const Tensor &A, const Tensor &B,
                                           bool left, bool check,
                                           const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (B.dtype() != A.dtype())
    return Status::error(std::string(api) +
                         ": Expected A and B to have the same dtype, but "
                         "found A of type " +
                         torchTypeName(A.dtype()) + " and B of type " +
                         torchTypeName(B.dtype()) + " instead");
  return TSIR_LINALG_DISPATCH(A.dtype(), solveImpl, A, B, left, check);
}

/// linalg_solve(A, B, left): the errors always checked.
StatusOr<Tensor> linalgSolve(Tensor A, Tensor B, bool left) {
  return firstResult(solve(A, B, left, true, "linalg.solve"));
}

/// linalg_solve_ex(A, B, left, check_errors).
StatusOr<std::tuple<Tensor, Tensor>> linalgSolveEx(Tensor A, Tensor B,
                                                   bool left, bool check) {
  return solve(A, B, left, check, "linalg.solve_ex");
}

/// The inverse and info.
template <class T>
StatusOr<std::tuple<Tensor, Tensor>> invImpl(const Tensor &A, bool check,
                                             const char *api) {
  int64_t n = A.size(-1);
  Tensor eye = Tensor::zeros({n, n}, A.dtype());
  Tensor eyeD = Tensor::zeros({n, n}, DType::Float64);
  for (int64_t i = 0; i < n; ++i)
    eyeD.dataAs<double>()[i * n + i] = 1;
  TSIR_RT_RETURN_IF_ERROR(eye.copyFrom(eyeD));
  std::vector<int> info;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor X, solveMatrices<T>(A, eye, true, info));
  if (check)
    for (size_t b = 0; b < info.size(); ++b)
      if (info[b] > 0)
        return infoError(api, "inv", info[b], b, A.dim() == 2);
  return std::make_tuple(X, storeInts(info, leading(A)));
}

StatusOr<std::tuple<Tensor, Tensor>> inv(const Tensor &A, bool check,
                                         const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  return TSIR_LINALG_DISPATCH(A.dtype(), invImpl, A, check, api);
}

/// linalg_inv(A) and inverse(self): the errors always checked.
StatusOr<Tensor> linalgInv(Tensor A) {
  return firstResult(inv(A, true, "linalg.inv"));
}

/// linalg_inv_ex(A, check_errors).
StatusOr<std::tuple<Tensor, Tensor>> linalgInvEx(Tensor A, bool check) {
  return inv(A, check, "linalg.inv_ex");
}

/// linalg_lu_solve(LU, pivots, B, left, adjoint).
template <class T>
StatusOr<Tensor> luSolveImpl(const Tensor &LU, const Tensor &pivots,
                             const Tensor &B, bool left, bool adjoint) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(LU), leading(B)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> lu, loadMatsExpanded<T>(LU, batch));
  int64_t n = lu.rows;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor pe, pivots.expand(withDims(batch, {n})));
  Tensor pc = pe.to(DType::Int32);
  std::vector<int> piv(pc.dataAs<int32_t>(), pc.dataAs<int32_t>() + pc.numel());
  for (int p : piv)
    if (p < 1 || p > n)
      return Status::error("linalg.lu_solve: pivots out of range");
  if (left) {
    TSIR_RT_ASSIGN_OR_RETURN(Mats<T> X, loadMatsExpanded<T>(B, batch));
    TSIR_RT_RETURN_IF_ERROR(getrsBatch(lu, piv, X, adjoint ? 'T' : 'N'));
    return storeMats(X, LU.dtype());
  }
  // X A = B <=> A^T X^T = B^T (adjoint: A X^T... op flips).
  TSIR_RT_ASSIGN_OR_RETURN(Tensor Be,
                           B.expand(withDims(batch, {B.size(-2), B.size(-1)})));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor Bt, Be.transpose(-2, -1));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> Xt, loadMatsExpanded<T>(Bt, batch));
  TSIR_RT_RETURN_IF_ERROR(getrsBatch(lu, piv, Xt, adjoint ? 'N' : 'T'));
  Tensor out = storeMats(Xt, LU.dtype());
  TSIR_RT_ASSIGN_OR_RETURN(Tensor X, out.transpose(-2, -1));
  return X.contiguous();
}

StatusOr<Tensor> luSolveCommon(const Tensor &LU, const Tensor &pivots,
                               const Tensor &B, bool left, bool adjoint,
                               const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(LU, api, "LU"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(LU, api));
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(B, api, "B"));
  if (B.dtype() != LU.dtype())
    return Status::error(std::string(api) +
                         ": Expected LU and B to have the same dtype");
  if ((left ? B.size(-2) : B.size(-1)) != LU.size(-1))
    return Status::error(std::string(api) +
                         ": Incompatible shapes of A and B for the equation " +
                         (left ? "AX = B" : "XA = B"));
  return TSIR_LINALG_DISPATCH(LU.dtype(), luSolveImpl, LU, pivots, B, left,
                              adjoint);
}

/// linalg_lu_solve(LU, pivots, B, left, adjoint).
StatusOr<Tensor> linalgLuSolve(Tensor LU, Tensor pivots, Tensor B, bool left,
                               bool adjoint) {
  return luSolveCommon(LU, pivots, B, left, adjoint, "linalg.lu_solve");
}

/// lu_solve(self=B, LU_data, LU_pivots).
StatusOr<Tensor> luSolveLegacy(Tensor B, Tensor LU, Tensor pivots) {
  return luSolveCommon(LU, pivots, B, true, false, "torch.lu_solve");
}

//===----------------------------------------------------------------------===//
// Triangular solves
//===----------------------------------------------------------------------===//

/// op(A) X = B (left) or X op(A) = B with BLAS trsm; batches broadcast.
template <class T>
StatusOr<Tensor> trsmSolve(const Tensor &A, const Tensor &B, bool upper,
                           bool left, bool transpose, bool unit,
                           std::vector<int64_t> &batch) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  TSIR_RT_ASSIGN_OR_RETURN(batch, broadcastSizes(leading(A), leading(B)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> a, loadMatsExpanded<T>(A, batch));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> x, loadMatsExpanded<T>(B, batch));
  char side = left ? 'L' : 'R', uplo = upper ? 'U' : 'L',
       trans = transpose ? 'T' : 'N', diag = unit ? 'U' : 'N';
  int m = static_cast<int>(x.rows), n = static_cast<int>(x.cols);
  int lda = a.ld(), ldb = x.ld();
  T one = 1;
  if (m > 0 && n > 0)
    for (int64_t b = 0; b < x.count(); ++b)
      L->trsm(&side, &uplo, &trans, &diag, &m, &n, &one, a.at(b), &lda,
              x.at(b), &ldb, 1, 1, 1, 1);
  return storeMats(x, A.dtype());
}

template <class T>
StatusOr<std::tuple<Tensor, Tensor>>
triangularSolveImpl(const Tensor &B, const Tensor &A, bool upper,
                    bool transpose, bool unit) {
  std::vector<int64_t> batch;
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor X, trsmSolve<T>(A, B, upper, true, transpose, unit, batch));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor Ae,
                           A.expand(withDims(batch, {A.size(-2), A.size(-1)})));
  return std::make_tuple(X, Ae.clone());
}

/// triangular_solve(self=B, A, upper, transpose, unitriangular).
StatusOr<std::tuple<Tensor, Tensor>>
triangularSolve(Tensor B, Tensor A, bool upper, bool transpose, bool unit) {
  const char *api = "torch.triangular_solve";
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(B, api, "B"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (B.dtype() != A.dtype())
    return Status::error(std::string(api) +
                         ": Expected b and A to have the same dtype");
  if (B.size(-2) != A.size(-1))
    return Status::error(std::string(api) +
                         ": Incompatible matrix sizes for A and B");
  return TSIR_LINALG_DISPATCH(A.dtype(), triangularSolveImpl, B, A, upper,
                              transpose, unit);
}

/// linalg_solve_triangular(A, B, upper, left, unitriangular).
StatusOr<Tensor> solveTriangular(Tensor A, Tensor B, bool upper, bool left,
                                 bool unit) {
  const char *api = "linalg.solve_triangular";
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(B, api, "B"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (B.dtype() != A.dtype())
    return Status::error(std::string(api) +
                         ": Expected A and B to have the same dtype");
  if ((left ? B.size(-2) : B.size(-1)) != A.size(-1))
    return Status::error(std::string(api) +
                         ": Incompatible shapes of A and B for the equation " +
                         (left ? "AX = B" : "XA = B"));
  std::vector<int64_t> batch;
  return TSIR_LINALG_DISPATCH(A.dtype(), trsmSolve, A, B, upper, left, false,
                              unit, batch);
}

//===----------------------------------------------------------------------===//
// Cholesky
//===----------------------------------------------------------------------===//

/// The factor and info.
template <class T>
StatusOr<std::tuple<Tensor, Tensor>> choleskyImpl(const Tensor &A, bool upper,
                                                  bool check, const char *api) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  Mats<T> a = loadMats<T>(A);
  int n = static_cast<int>(a.rows), lda = a.ld();
  char uplo = upper ? 'U' : 'L';
  std::vector<int> info(a.count(), 0);
  for (int64_t b = 0; b < a.count(); ++b) {
    L->potrf(&uplo, &n, a.at(b), &lda, &info[b], 1);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        if (upper ? i > j : i < j)
          a(b, i, j) = 0;
  }
  if (check)
    for (int64_t b = 0; b < a.count(); ++b)
      if (info[b] > 0)
        return infoError(api, "cholesky", info[b], b, A.dim() == 2);
  return std::make_tuple(storeMats(a, A.dtype()), storeInts(info, leading(A)));
}

StatusOr<std::tuple<Tensor, Tensor>> cholesky(const Tensor &A, bool upper,
                                              bool check, const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  return TSIR_LINALG_DISPATCH(A.dtype(), choleskyImpl, A, upper, check, api);
}

/// linalg_cholesky(A, upper) and cholesky(A, upper): the errors always
/// checked.
StatusOr<Tensor> linalgCholesky(Tensor A, bool upper) {
  return firstResult(cholesky(A, upper, true, "linalg.cholesky"));
}

/// linalg_cholesky_ex(A, upper, check_errors).
StatusOr<std::tuple<Tensor, Tensor>> linalgCholeskyEx(Tensor A, bool upper,
                                                      bool check) {
  return cholesky(A, upper, check, "linalg.cholesky_ex");
}

template <class T>
StatusOr<Tensor> choleskySolveImpl(const Tensor &B, const Tensor &Lt,
                                   bool upper) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(B), leading(Lt)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> f, loadMatsExpanded<T>(Lt, batch));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> x, loadMatsExpanded<T>(B, batch));
  char uplo = upper ? 'U' : 'L';
  int n = static_cast<int>(f.rows), nrhs = static_cast<int>(x.cols);
  int lda = f.ld(), ldb = x.ld(), info = 0;
  if (n > 0 && nrhs > 0)
    for (int64_t b = 0; b < x.count(); ++b)
      L->potrs(&uplo, &n, &nrhs, f.at(b), &lda, x.at(b), &ldb, &info, 1);
  return storeMats(x, B.dtype());
}

/// cholesky_solve(self=B, input2=L, upper).
StatusOr<Tensor> choleskySolve(Tensor B, Tensor Lt, bool upper) {
  const char *api = "cholesky_solve";
  if (B.dim() < 2)
    return Status::error("b should have at least 2 dimensions, but has " +
                         std::to_string(B.dim()) + " dimensions instead");
  if (Lt.dim() < 2)
    return Status::error("u should have at least 2 dimensions, but has " +
                         std::to_string(Lt.dim()) + " dimensions instead");
  TSIR_RT_RETURN_IF_ERROR(checkSquare(Lt, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(B, api));
  if (B.dtype() != Lt.dtype())
    return Status::error("Expected b and A to have the same dtype, but found "
                         "b of type " +
                         torchTypeName(B.dtype()) + " and A of type " +
                         torchTypeName(Lt.dtype()) + " instead.");
  if (B.size(-2) != Lt.size(-1))
    return Status::error("Incompatible matrix sizes for cholesky_solve: each "
                         "A matrix is " +
                         std::to_string(Lt.size(-1)) + " by " +
                         std::to_string(Lt.size(-1)) +
                         " but each b matrix is " + std::to_string(B.size(-2)) +
                         " by " + std::to_string(B.size(-1)));
  return TSIR_LINALG_DISPATCH(B.dtype(), choleskySolveImpl, B, Lt, upper);
}

template <class T>
StatusOr<Tensor> choleskyInverseImpl(const Tensor &Lt, bool upper) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  Mats<T> a = loadMats<T>(Lt);
  char uplo = upper ? 'U' : 'L';
  int n = static_cast<int>(a.rows), lda = a.ld(), info = 0;
  for (int64_t b = 0; b < a.count(); ++b) {
    if (n > 0)
      L->potri(&uplo, &n, a.at(b), &lda, &info, 1);
    if (info > 0)
      return Status::error("cholesky_inverse: The diagonal element " +
                           std::to_string(info) +
                           " is zero, the inversion could not be completed "
                           "because the input matrix is singular.");
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < j; ++i) {
        if (upper)
          a(b, j, i) = a(b, i, j);
        else
          a(b, i, j) = a(b, j, i);
      }
  }
  return storeMats(a, Lt.dtype());
}

/// cholesky_inverse(self=L, upper).
StatusOr<Tensor> choleskyInverse(Tensor Lt, bool upper) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(Lt, "cholesky_inverse", "input"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(Lt, "cholesky_inverse"));
  return TSIR_LINALG_DISPATCH(Lt.dtype(), choleskyInverseImpl, Lt, upper);
}

} // namespace

void registerLinalgKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::linalg_det(Tensor A) -> Tensor", bindKernel(det)},
          {"aten::det(Tensor self) -> Tensor", bindKernel(det)},
          {"aten::linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)",
           bindKernel(slogdet)},
          {"aten::slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)",
           bindKernel(slogdet)},
          {"aten::logdet(Tensor self) -> Tensor", bindKernel(logdet)},
          {"aten::linalg_inv(Tensor A) -> Tensor", bindKernel(linalgInv)},
          {"aten::inverse(Tensor self) -> Tensor", bindKernel(linalgInv)},
          {"aten::linalg_inv_ex(Tensor A, *, bool check_errors=False) -> "
           "(Tensor inverse, Tensor info)",
           bindKernel(linalgInvEx)},
          {"aten::linalg_solve(Tensor A, Tensor B, *, bool left=True) -> "
           "Tensor",
           bindKernel(linalgSolve)},
          {"aten::linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool "
           "check_errors=False) -> (Tensor result, Tensor info)",
           bindKernel(linalgSolveEx)},
          {"aten::linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor "
           "LU, Tensor pivots)",
           bindKernel(linalgLuFactor)},
          {"aten::linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool "
           "check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)",
           bindKernel(linalgLuFactorEx)},
          {"aten::_lu_with_info(Tensor self, bool pivot=True, bool "
           "check_errors=True) -> (Tensor LU, Tensor pivots, Tensor info)",
           bindKernel(luWithInfo)},
          {"aten::linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor "
           "L, Tensor U)",
           bindKernel(linalgLu)},
          {"aten::lu_unpack(Tensor LU_data, Tensor LU_pivots, bool "
           "unpack_data=True, bool unpack_pivots=True) -> (Tensor P, Tensor L, "
           "Tensor U)",
           bindKernel(luUnpack)},
          {"aten::linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool "
           "left=True, bool adjoint=False) -> Tensor",
           bindKernel(linalgLuSolve)},
          {"aten::lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> "
           "Tensor",
           bindKernel(luSolveLegacy)},
          {"aten::triangular_solve(Tensor self, Tensor A, bool upper=True, "
           "bool transpose=False, bool unitriangular=False) -> (Tensor "
           "solution, Tensor cloned_coefficient)",
           bindKernel(triangularSolve)},
          {"aten::linalg_solve_triangular(Tensor self, Tensor B, *, bool "
           "upper, bool left=True, bool unitriangular=False) -> Tensor",
           bindKernel(solveTriangular)},
          {"aten::linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor",
           bindKernel(linalgCholesky)},
          {"aten::cholesky(Tensor self, bool upper=False) -> Tensor",
           bindKernel(linalgCholesky)},
          {"aten::linalg_cholesky_ex(Tensor self, *, bool upper=False, bool "
           "check_errors=False) -> (Tensor L, Tensor info)",
           bindKernel(linalgCholeskyEx)},
          {"aten::cholesky_solve(Tensor self, Tensor input2, bool upper=False) "
           "-> Tensor",
           bindKernel(choleskySolve)},
          {"aten::cholesky_inverse(Tensor self, bool upper=False) -> Tensor",
           bindKernel(choleskyInverse)},
      });
  registerLinalgDecompositionKernels(registry);
  registerLinalgNormKernels(registry);
}

} // namespace tsir::rt
