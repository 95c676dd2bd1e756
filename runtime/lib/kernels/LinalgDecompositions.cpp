//===- LinalgDecompositions.cpp - QR, SVD, eigh, lstsq, pinv, rank, LDL ---===//
//
// The second file of the LAPACK-backed linear algebra kernels (see
// LinalgKernels.cpp): the orthogonal and spectral decompositions and what
// builds on them. linalg_qr/qr (geqrf + orgqr, as torch), geqrf, ormqr,
// linalg_householder_product (orgqr), linalg_svd/svd/linalg_svdvals
// (gesdd), linalg_eigh/linalg_eigvalsh/symeig (syevd), linalg_lstsq
// (gelsy, gels, gelsd, gelss), linalg_pinv/pinverse, linalg_matrix_rank,
// and linalg_ldl_factor(_ex)/linalg_ldl_solve (sytrf, sytrs).
//
//===----------------------------------------------------------------------===//

#include "LinalgSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace tsir::rt {

using namespace linalg;

namespace {

//===----------------------------------------------------------------------===//
// QR
//===----------------------------------------------------------------------===//

/// geqrf of every matrix of `a` in place; tau holds min(m, n) per matrix.
template <class T>
Status geqrfBatch(Mats<T> &a, std::vector<T> &tau) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  int m = static_cast<int>(a.rows), n = static_cast<int>(a.cols);
  int k = std::min(m, n), lda = a.ld(), info = 0;
  tau.assign(static_cast<size_t>(a.count() * k), T(0));
  if (k == 0)
    return Status::ok();
  int lwork = -1;
  T query = 0;
  L->geqrf(&m, &n, a.at(0), &lda, tau.data(), &query, &lwork, &info);
  lwork = workSize(query);
  std::vector<T> work(lwork);
  for (int64_t b = 0; b < a.count(); ++b)
    L->geqrf(&m, &n, a.at(b), &lda, tau.data() + b * k, work.data(), &lwork,
             &info);
  return Status::ok();
}

/// orgqr of every matrix of `q` (m x n) with k reflectors from tau.
template <class T>
Status orgqrBatch(Mats<T> &q, const std::vector<T> &tau, int k) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  int m = static_cast<int>(q.rows), n = static_cast<int>(q.cols);
  int lda = q.ld(), info = 0;
  if (m == 0 || n == 0 || q.count() == 0)
    return Status::ok();
  int lwork = -1;
  T query = 0;
  L->orgqr(&m, &n, &k, q.at(0), &lda, tau.data(), &query, &lwork, &info);
  lwork = workSize(query);
  std::vector<T> work(lwork);
  for (int64_t b = 0; b < q.count(); ++b)
    L->orgqr(&m, &n, &k, q.at(b), &lda, tau.data() + b * k, work.data(),
             &lwork, &info);
  return Status::ok();
}

/// Q (an empty tensor without computeQ) and R.
template <class T>
StatusOr<std::tuple<Tensor, Tensor>> qrImpl(const Tensor &A, bool computeQ,
                                            bool reduced) {
  Mats<T> qr = loadMats<T>(A);
  int64_t m = qr.rows, n = qr.cols, k = std::min(m, n);
  std::vector<T> tau;
  TSIR_RT_RETURN_IF_ERROR(geqrfBatch(qr, tau));
  int64_t rRows = reduced ? k : m;
  Mats<T> R = zeroMats<T>(qr.batch, rRows, n);
  for (int64_t b = 0; b < qr.count(); ++b)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i <= j && i < rRows; ++i)
        R(b, i, j) = qr(b, i, j);
  if (!computeQ)
    return std::make_tuple(Tensor::zeros({0}, A.dtype()),
                           storeMats(R, A.dtype()));
  int64_t qCols = reduced ? k : m;
  Mats<T> Q = zeroMats<T>(qr.batch, m, qCols);
  for (int64_t b = 0; b < qr.count(); ++b)
    for (int64_t j = 0; j < std::min(qCols, n); ++j)
      for (int64_t i = 0; i < m; ++i)
        Q(b, i, j) = qr(b, i, j);
  TSIR_RT_RETURN_IF_ERROR(orgqrBatch(Q, tau, static_cast<int>(k)));
  return std::make_tuple(storeMats(Q, A.dtype()), storeMats(R, A.dtype()));
}

StatusOr<std::tuple<Tensor, Tensor>> qr(const Tensor &A, bool computeQ,
                                        bool reduced, const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  return TSIR_LINALG_DISPATCH(A.dtype(), qrImpl, A, computeQ, reduced);
}

/// linalg_qr(A, mode).
StatusOr<std::tuple<Tensor, Tensor>> linalgQr(Tensor A,
                                              const std::string &mode) {
  bool computeQ = true, reduced = true;
  if (mode == "reduced") {
  } else if (mode == "complete") {
    reduced = false;
  } else if (mode == "r") {
    computeQ = false;
  } else {
    return Status::error("qr received unrecognized mode '" + mode +
                         "' but expected one of 'reduced' (default), 'r', "
                         "or 'complete'");
  }
  return qr(A, computeQ, reduced, "linalg.qr");
}

/// qr(self, some).
StatusOr<std::tuple<Tensor, Tensor>> legacyQr(Tensor A, bool some) {
  return qr(A, true, some, "qr");
}

template <class T>
StatusOr<std::tuple<Tensor, Tensor>> geqrfImpl(const Tensor &A) {
  Mats<T> qr = loadMats<T>(A);
  std::vector<T> tau;
  TSIR_RT_RETURN_IF_ERROR(geqrfBatch(qr, tau));
  return std::make_tuple(
      storeMats(qr, A.dtype()),
      storeVector(tau, withDims(leading(A), {std::min(qr.rows, qr.cols)}),
                  A.dtype()));
}

StatusOr<std::tuple<Tensor, Tensor>> geqrf(Tensor A) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, "geqrf"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "geqrf"));
  return TSIR_LINALG_DISPATCH(A.dtype(), geqrfImpl, A);
}

/// tau [batch..., k] broadcast to `batch`, as T.
template <class T>
StatusOr<std::vector<T>> loadTau(const Tensor &tau,
                                 const std::vector<int64_t> &batch) {
  TSIR_RT_ASSIGN_OR_RETURN(Tensor te, tau.expand(withDims(batch, {tau.size(-1)})));
  Tensor c = te.to(dtypeOf<T>());
  return std::vector<T>(c.template dataAs<T>(),
                        c.template dataAs<T>() + c.numel());
}

template <class T>
StatusOr<Tensor> householderImpl(const Tensor &A, const Tensor &tau) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(A), leading(tau, 1)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> q, loadMatsExpanded<T>(A, batch));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<T> t, loadTau<T>(tau, batch));
  TSIR_RT_RETURN_IF_ERROR(
      orgqrBatch(q, t, static_cast<int>(tau.size(-1))));
  return storeMats(q, A.dtype());
}

/// linalg_householder_product(A, tau) and orgqr(A, tau).
StatusOr<Tensor> householderProduct(Tensor A, Tensor tau) {
  const char *api = "torch.linalg.householder_product";
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api, "input"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (tau.dim() < 1)
    return Status::error(std::string(api) +
                         ": input.dim() - tau.dim() must be equal to 1");
  if (A.size(-2) < A.size(-1))
    return Status::error(std::string(api) +
                         ": input.shape[-2] must be greater than or equal to "
                         "input.shape[-1]");
  if (A.size(-1) < tau.size(-1))
    return Status::error(std::string(api) +
                         ": input.shape[-1] must be greater than or equal to "
                         "tau.shape[-1]");
  if (tau.dtype() != A.dtype())
    return Status::error(std::string(api) +
                         ": tau dtype does not match input dtype");
  return TSIR_LINALG_DISPATCH(A.dtype(), householderImpl, A, tau);
}

template <class T>
StatusOr<Tensor> ormqrImpl(const Tensor &A, const Tensor &tau, const Tensor &C,
                           bool left, bool transpose) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(A), leading(C)));
  TSIR_RT_ASSIGN_OR_RETURN(batch, broadcastSizes(batch, leading(tau, 1)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> a, loadMatsExpanded<T>(A, batch));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> c, loadMatsExpanded<T>(C, batch));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<T> t, loadTau<T>(tau, batch));
  char side = left ? 'L' : 'R', trans = transpose ? 'T' : 'N';
  int m = static_cast<int>(c.rows), n = static_cast<int>(c.cols);
  int k = static_cast<int>(tau.size(-1)), lda = a.ld(), ldc = c.ld(),
      info = 0;
  if (m > 0 && n > 0 && c.count() > 0) {
    int lwork = -1;
    T query = 0;
    L->ormqr(&side, &trans, &m, &n, &k, a.at(0), &lda, t.data(), c.at(0),
             &ldc, &query, &lwork, &info, 1, 1);
    lwork = workSize(query);
    std::vector<T> work(lwork);
    for (int64_t b = 0; b < c.count(); ++b)
      L->ormqr(&side, &trans, &m, &n, &k, a.at(b), &lda, t.data() + b * k,
               c.at(b), &ldc, work.data(), &lwork, &info, 1, 1);
  }
  return storeMats(c, C.dtype());
}

/// ormqr(self=A, input2=tau, input3=C, left, transpose).
StatusOr<Tensor> ormqr(Tensor A, Tensor tau, Tensor C, bool left,
                       bool transpose) {
  const char *api = "torch.ormqr";
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api, "input"));
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(C, api, "other"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (tau.dim() < 1)
    return Status::error(std::string(api) +
                         ": input.dim() - tau.dim() must be equal to 1");
  int64_t nrows = left ? C.size(-2) : C.size(-1);
  if (A.size(-2) != nrows)
    return Status::error(std::string(api) + ": input.shape[-2] must be equal "
                                            "to other.shape[" +
                         (left ? "-2" : "-1") + "]");
  if (tau.size(-1) > A.size(-1) || tau.size(-1) > nrows)
    return Status::error(std::string(api) +
                         ": tau.shape[-1] must be less than or equal to "
                         "input.shape[-1]");
  if (tau.dtype() != A.dtype() || C.dtype() != A.dtype())
    return Status::error(std::string(api) +
                         ": expected input, tau and other to have the same "
                         "dtype");
  return TSIR_LINALG_DISPATCH(A.dtype(), ormqrImpl, A, tau, C, left, transpose);
}

//===----------------------------------------------------------------------===//
// SVD
//===----------------------------------------------------------------------===//

/// gesdd of every matrix of A: U (m x ucols), S (k), Vh (vrows x n) with
/// jobz 'A' (full), 'S' (reduced) or 'N' (values only).
template <class T>
Status gesddBatch(const Tensor &A, char jobz, Mats<T> &U, std::vector<T> &S,
                  Mats<T> &Vh, const char *api) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  Mats<T> a = loadMats<T>(A);
  int m = static_cast<int>(a.rows), n = static_cast<int>(a.cols);
  int k = std::min(m, n);
  int64_t ucols = jobz == 'A' ? m : (jobz == 'S' ? k : 0);
  int64_t vrows = jobz == 'A' ? n : (jobz == 'S' ? k : 0);
  U = zeroMats<T>(a.batch, jobz == 'N' ? 0 : m, ucols);
  Vh = zeroMats<T>(a.batch, vrows, jobz == 'N' ? 0 : n);
  S.assign(static_cast<size_t>(a.count() * k), T(0));
  if (k == 0 || a.count() == 0) {
    // Empty matrices: the full U and Vh are identities.
    for (int64_t b = 0; b < a.count(); ++b) {
      for (int64_t i = 0; i < std::min(U.rows, U.cols); ++i)
        U(b, i, i) = 1;
      for (int64_t i = 0; i < std::min(Vh.rows, Vh.cols); ++i)
        Vh(b, i, i) = 1;
    }
    return Status::ok();
  }
  int lda = a.ld(), ldu = std::max(1, m);
  int ldvt = jobz == 'A' ? std::max(1, n) : std::max(1, k);
  std::vector<int> iwork(8 * static_cast<size_t>(k));
  int lwork = -1, info = 0;
  T query = 0;
  std::vector<T> udummy(1), vdummy(1);
  L->gesdd(&jobz, &m, &n, a.at(0), &lda, S.data(),
           jobz == 'N' ? udummy.data() : U.at(0), &ldu,
           jobz == 'N' ? vdummy.data() : Vh.at(0), &ldvt, &query, &lwork,
           iwork.data(), &info, 1);
  lwork = workSize(query);
  std::vector<T> work(lwork);
  for (int64_t b = 0; b < a.count(); ++b) {
    L->gesdd(&jobz, &m, &n, a.at(b), &lda, S.data() + b * k,
             jobz == 'N' ? udummy.data() : U.at(b), &ldu,
             jobz == 'N' ? vdummy.data() : Vh.at(b), &ldvt, work.data(),
             &lwork, iwork.data(), &info, 1);
    if (info > 0)
      return infoError(api, "svd", info, b, A.dim() == 2);
    if (info < 0)
      return Status::error(std::string(api) +
                           ": LAPACK gesdd rejected argument " +
                           std::to_string(-info));
  }
  return Status::ok();
}

/// U, S and Vh (V for the legacy svd).
template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
svdImpl(const Tensor &A, bool full, bool computeUV, bool legacy) {
  const char *api = legacy ? "torch.svd" : "linalg.svd";
  Mats<T> U, Vh;
  std::vector<T> S;
  char jobz = computeUV ? (full ? 'A' : 'S') : 'N';
  TSIR_RT_RETURN_IF_ERROR(gesddBatch<T>(A, jobz, U, S, Vh, api));
  int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  Tensor s = storeVector(S, withDims(leading(A), {k}), A.dtype());
  if (!computeUV) {
    // torch.svd(compute_uv=False): zero U (m x m) and V (n x n).
    return std::make_tuple(
        Tensor::zeros(withDims(leading(A), {m, m}), A.dtype()), s,
        Tensor::zeros(withDims(leading(A), {n, n}), A.dtype()));
  }
  Tensor u = storeMats(U, A.dtype());
  Tensor vh = storeMats(Vh, A.dtype());
  if (legacy) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor v, vh.transpose(-2, -1));
    return std::make_tuple(u, s, v.contiguous());
  }
  return std::make_tuple(u, s, vh);
}

/// linalg_svd(A, full_matrices, driver).
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
linalgSvd(Tensor A, bool full, const std::optional<std::string> &driver) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, "linalg.svd"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "linalg.svd"));
  if (driver)
    return Status::error("torch.linalg.svd: keyword argument `driver=` is only "
                         "supported on CUDA inputs with cuSOLVER backend.");
  return TSIR_LINALG_DISPATCH(A.dtype(), svdImpl, A, full, true, false);
}

/// svd(self, some, compute_uv) -> (U, S, V).
StatusOr<std::tuple<Tensor, Tensor, Tensor>> legacySvd(Tensor A, bool some,
                                                       bool uv) {
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, "linalg.svd"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "linalg.svd"));
  return TSIR_LINALG_DISPATCH(A.dtype(), svdImpl, A, !some, uv, true);
}

template <class T> StatusOr<Tensor> svdvalsImpl(const Tensor &A) {
  Mats<T> U, Vh;
  std::vector<T> S;
  TSIR_RT_RETURN_IF_ERROR(gesddBatch<T>(A, 'N', U, S, Vh, "linalg.svd"));
  return storeVector(
      S, withDims(leading(A), {std::min(A.size(-2), A.size(-1))}), A.dtype());
}

/// linalg_svdvals(A, driver): the driver is not read.
StatusOr<Tensor> svdvals(Tensor A, Value driver) {
  (void)driver;
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, "linalg.svdvals"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, "linalg.svdvals"));
  return TSIR_LINALG_DISPATCH(A.dtype(), svdvalsImpl, A);
}

//===----------------------------------------------------------------------===//
// Symmetric eigendecomposition
//===----------------------------------------------------------------------===//

/// syevd of every matrix of A: eigenvalues ascending in `w`; with
/// `vectors`, `a` holds the eigenvectors as columns.
template <class T>
Status syevdBatch(const Tensor &A, bool vectors, bool upper, Mats<T> &a,
                  std::vector<T> &w, const char *api) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  a = loadMats<T>(A);
  int n = static_cast<int>(a.rows), lda = a.ld(), info = 0;
  w.assign(static_cast<size_t>(a.count() * n), T(0));
  if (n == 0 || a.count() == 0)
    return Status::ok();
  char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  int lwork = -1, liwork = -1, iquery = 0;
  T query = 0;
  L->syevd(&jobz, &uplo, &n, a.at(0), &lda, w.data(), &query, &lwork,
           &iquery, &liwork, &info, 1, 1);
  lwork = workSize(query);
  liwork = std::max(1, iquery);
  std::vector<T> work(lwork);
  std::vector<int> iwork(liwork);
  for (int64_t b = 0; b < a.count(); ++b) {
    L->syevd(&jobz, &uplo, &n, a.at(b), &lda, w.data() + b * n, work.data(),
             &lwork, iwork.data(), &liwork, &info, 1, 1);
    if (info > 0)
      return infoError(api, "eigh", info, b, A.dim() == 2);
  }
  return Status::ok();
}

/// The eigenvalues and the eigenvectors (an empty tensor without
/// `vectors`).
template <class T>
StatusOr<std::tuple<Tensor, Tensor>> eighImpl(const Tensor &A, bool vectors,
                                              bool upper, const char *api) {
  Mats<T> a;
  std::vector<T> w;
  TSIR_RT_RETURN_IF_ERROR(syevdBatch<T>(A, vectors, upper, a, w, api));
  return std::make_tuple(
      storeVector(w, withDims(leading(A), {A.size(-1)}), A.dtype()),
      vectors ? storeMats(a, A.dtype()) : Tensor::zeros({0}, A.dtype()));
}

StatusOr<std::tuple<Tensor, Tensor>> eigh(const Tensor &A, bool vectors,
                                          bool upper, const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  return TSIR_LINALG_DISPATCH(A.dtype(), eighImpl, A, vectors, upper, api);
}

StatusOr<bool> uploArg(const std::string &s) {
  if (s == "U" || s == "u")
    return true;
  if (s == "L" || s == "l")
    return false;
  return Status::error("Expected UPLO argument to be 'L' or 'U', but got " + s);
}

/// linalg_eigh(A, UPLO).
StatusOr<std::tuple<Tensor, Tensor>> linalgEigh(Tensor A,
                                                const std::string &uplo) {
  TSIR_RT_ASSIGN_OR_RETURN(bool upper, uploArg(uplo));
  return eigh(A, true, upper, "linalg.eigh");
}

/// linalg_eigvalsh(A, UPLO).
StatusOr<Tensor> linalgEigvalsh(Tensor A, const std::string &uplo) {
  TSIR_RT_ASSIGN_OR_RETURN(bool upper, uploArg(uplo));
  return firstResult(eigh(A, false, upper, "linalg.eigvalsh"));
}

/// symeig(self, eigenvectors, upper).
StatusOr<std::tuple<Tensor, Tensor>> symeig(Tensor A, bool vectors,
                                            bool upper) {
  return eigh(A, vectors, upper, "symeig");
}

//===----------------------------------------------------------------------===//
// Least squares
//===----------------------------------------------------------------------===//

/// The solution, residuals, rank and singular values.
template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor, Tensor>>
lstsqImpl(const Tensor &A, const Tensor &B, std::optional<double> rcondArg,
          const std::string &driver) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  bool vectorCase = A.dim() - B.dim() == 1;
  Tensor B2 = B;
  if (vectorCase) {
    TSIR_RT_ASSIGN_OR_RETURN(B2, B.unsqueeze(-1));
  }
  if (A.size(-2) != B2.size(-2))
    return Status::error("torch.linalg.lstsq: input.size(-2) should match "
                         "other.size(-2)");
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(A), leading(B2)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> a, loadMatsExpanded<T>(A, batch));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> b0, loadMatsExpanded<T>(B2, batch));
  int m = static_cast<int>(a.rows), n = static_cast<int>(a.cols);
  int nrhs = static_cast<int>(b0.cols), k = std::min(m, n);
  int64_t rowsB = std::max(m, n);
  Mats<T> x = zeroMats<T>(batch, rowsB, nrhs);
  for (int64_t bi = 0; bi < x.count(); ++bi)
    for (int64_t j = 0; j < nrhs; ++j)
      for (int64_t i = 0; i < m; ++i)
        x(bi, i, j) = b0(bi, i, j);
  double eps = sizeof(T) == sizeof(float)
                   ? std::numeric_limits<float>::epsilon()
                   : std::numeric_limits<double>::epsilon();
  T rcond = static_cast<T>(rcondArg ? *rcondArg : eps * std::max(m, n));
  bool withRank = driver != "gels";
  bool withS = driver == "gelsd" || driver == "gelss";
  std::vector<int64_t> rank(x.count(), 0);
  std::vector<T> S(withS ? x.count() * k : 0);
  int lda = a.ld(), ldb = std::max<int>(1, rowsB), info = 0;
  if (m > 0 && n > 0 && nrhs > 0 && x.count() > 0) {
    for (int64_t bi = 0; bi < x.count(); ++bi) {
      int r = 0;
      int lwork = -1;
      T query = 0;
      std::vector<T> work;
      if (driver == "gels") {
        char trans = 'N';
        L->gels(&trans, &m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb, &query,
                &lwork, &info, 1);
        lwork = workSize(query);
        work.resize(lwork);
        L->gels(&trans, &m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb,
                work.data(), &lwork, &info, 1);
        if (info > 0)
          return Status::error(
              "torch.linalg.lstsq: The least squares solution could not be "
              "computed because the input matrix does not have full rank "
              "(error code: " +
              std::to_string(info) + ").");
      } else if (driver == "gelsy") {
        std::vector<int> jpvt(n, 0);
        L->gelsy(&m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb, jpvt.data(),
                 &rcond, &r, &query, &lwork, &info);
        lwork = workSize(query);
        work.resize(lwork);
        L->gelsy(&m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb, jpvt.data(),
                 &rcond, &r, work.data(), &lwork, &info);
      } else if (driver == "gelsd") {
        int iquery = 0;
        L->gelsd(&m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb,
                 S.data() + bi * k, &rcond, &r, &query, &lwork, &iquery,
                 &info);
        lwork = workSize(query);
        work.resize(lwork);
        std::vector<int> iwork(std::max(1, iquery));
        L->gelsd(&m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb,
                 S.data() + bi * k, &rcond, &r, work.data(), &lwork,
                 iwork.data(), &info);
      } else {
        L->gelss(&m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb,
                 S.data() + bi * k, &rcond, &r, &query, &lwork, &info);
        lwork = workSize(query);
        work.resize(lwork);
        L->gelss(&m, &n, &nrhs, a.at(bi), &lda, x.at(bi), &ldb,
                 S.data() + bi * k, &rcond, &r, work.data(), &lwork, &info);
      }
      if (info > 0 && driver != "gels")
        return Status::error("torch.linalg.lstsq: The algorithm failed to "
                             "converge (error code: " +
                             std::to_string(info) + ").");
      rank[bi] = r;
    }
  }
  // The solution is the first n rows.
  Mats<T> sol = zeroMats<T>(batch, n, nrhs);
  for (int64_t bi = 0; bi < x.count(); ++bi)
    for (int64_t j = 0; j < nrhs; ++j)
      for (int64_t i = 0; i < n; ++i)
        sol(bi, i, j) = x(bi, i, j);
  Tensor solution = storeMats(sol, A.dtype());
  // Residuals: rows n..m of LAPACK's result, squared and summed, when
  // m > n, the driver is not gelsy, and (gelsd, gelss) every rank is n.
  bool residuals = m > n && driver != "gelsy";
  if (residuals && withS)
    for (int64_t r : rank)
      if (r != n)
        residuals = false;
  Tensor res = Tensor::zeros({0}, A.dtype());
  if (residuals) {
    std::vector<T> sums(x.count() * nrhs, T(0));
    for (int64_t bi = 0; bi < x.count(); ++bi)
      for (int64_t j = 0; j < nrhs; ++j) {
        T sum = 0;
        for (int64_t i = n; i < m; ++i)
          sum += x(bi, i, j) * x(bi, i, j);
        sums[bi * nrhs + j] = sum;
      }
    res = storeVector(sums, withDims(batch, {nrhs}), A.dtype());
  }
  if (vectorCase) {
    TSIR_RT_ASSIGN_OR_RETURN(solution, solution.squeeze(-1));
  }
  return std::make_tuple(solution, res,
                         withRank ? storeVector(rank, batch, DType::Int64)
                                  : Tensor::zeros({0}, DType::Int64),
                         withS ? storeVector(S, withDims(batch, {k}), A.dtype())
                               : Tensor::zeros({0}, A.dtype()));
}

/// linalg_lstsq(self, b, rcond, driver).
StatusOr<std::tuple<Tensor, Tensor, Tensor, Tensor>>
lstsq(Tensor A, Tensor B, std::optional<double> rcond,
      const std::optional<std::string> &driverArg) {
  std::string driver = driverArg.value_or("gelsy");
  if (driver != "gels" && driver != "gelsy" && driver != "gelsd" &&
      driver != "gelss")
    return Status::error("torch.linalg.lstsq: parameter `driver` should be "
                         "one of (gels, gelsy, gelsd, gelss)");
  const char *api = "torch.linalg.lstsq";
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api, "input"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (B.dim() < 1)
    return Status::error("torch.linalg.lstsq: input must have at least 1 "
                         "dimension.");
  int64_t diff = A.dim() - B.dim();
  if (diff < 0 || diff > 1)
    return Status::error("torch.linalg.lstsq: input.dim() must be greater or "
                         "equal to other.dim() and (input.dim() - "
                         "other.dim()) <= 1");
  if (B.dtype() != A.dtype())
    return Status::error("torch.linalg.lstsq: Expected input and other to "
                         "have the same dtype, but got input's dtype " +
                         torchTypeName(A.dtype()) + " and other's dtype " +
                         torchTypeName(B.dtype()));
  return TSIR_LINALG_DISPATCH(A.dtype(), lstsqImpl, A, B, rcond, driver);
}

//===----------------------------------------------------------------------===//
// pinv and matrix_rank
//===----------------------------------------------------------------------===//

/// atol and rtol per batch element (double), as torch's get_atol_rtol:
/// absent rtol is eps * max(m, n), or 0 when atol is given (and > 0).
struct Tolerances {
  std::vector<double> atol, rtol;
};

StatusOr<std::vector<double>> tolerancePerBatch(const Value &value,
                                                const std::vector<int64_t> &batch,
                                                double fallback) {
  int64_t count = 1;
  for (int64_t s : batch)
    count *= s;
  if (value.isNone())
    return std::vector<double>(count, fallback);
  if (value.isTensor()) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor e, value.toTensor().expand(batch));
    return doubles(e);
  }
  TSIR_RT_ASSIGN_OR_RETURN(double v, scalarArg(value, "tolerance"));
  return std::vector<double>(count, v);
}

StatusOr<Tolerances> tolerances(const Tensor &A, const Value &atolV,
                                const Value &rtolV) {
  std::vector<int64_t> batch = leading(A);
  double eps = A.dtype() == DType::Float32
                   ? std::numeric_limits<float>::epsilon()
                   : std::numeric_limits<double>::epsilon();
  double defaultRtol = eps * std::max(A.size(-1), A.size(-2));
  Tolerances t;
  TSIR_RT_ASSIGN_OR_RETURN(t.atol, tolerancePerBatch(atolV, batch, 0.0));
  if (rtolV.isNone()) {
    t.rtol.assign(t.atol.size(), defaultRtol);
    if (!atolV.isNone())
      for (size_t i = 0; i < t.atol.size(); ++i)
        t.rtol[i] = t.atol[i] > 0 ? 0.0 : defaultRtol;
  } else {
    TSIR_RT_ASSIGN_OR_RETURN(t.rtol, tolerancePerBatch(rtolV, batch, 0.0));
  }
  return t;
}

template <class T>
StatusOr<Tensor> pinvImpl(const Tensor &A, const Tolerances &tol,
                          bool hermitian) {
  int64_t m = A.size(-2), n = A.size(-1);
  std::vector<int64_t> batch = leading(A);
  if (A.numel() == 0)
    return Tensor::zeros(withDims(batch, {n, m}), A.dtype());
  Mats<T> out = zeroMats<T>(batch, n, m);
  if (!hermitian) {
    Mats<T> U, Vh;
    std::vector<T> S;
    TSIR_RT_RETURN_IF_ERROR(gesddBatch<T>(A, 'S', U, S, Vh, "linalg.pinv"));
    int64_t k = std::min(m, n);
    for (int64_t b = 0; b < out.count(); ++b) {
      double maxS = k > 0 ? static_cast<double>(S[b * k]) : 0.0;
      double cut = std::max(tol.atol[b], tol.rtol[b] * maxS);
      std::vector<T> inv(k);
      for (int64_t l = 0; l < k; ++l) {
        T s = S[b * k + l];
        inv[l] = static_cast<double>(s) > cut ? T(1) / s : T(0);
      }
      // pinv = V diag(inv) U^T: out(i, j) = sum_l Vh(l, i) inv[l] U(j, l).
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < k; ++l)
            sum += static_cast<double>(static_cast<T>(Vh(b, l, i) * inv[l])) *
                   U(b, j, l);
          out(b, i, j) = static_cast<T>(sum);
        }
    }
  } else {
    Mats<T> V;
    std::vector<T> w;
    TSIR_RT_RETURN_IF_ERROR(
        syevdBatch<T>(A, true, false, V, w, "linalg.pinv"));
    for (int64_t b = 0; b < out.count(); ++b) {
      double maxS = 0;
      for (int64_t l = 0; l < n; ++l)
        maxS = std::max(maxS, std::abs(static_cast<double>(w[b * n + l])));
      double cut = std::max(tol.atol[b], tol.rtol[b] * maxS);
      std::vector<T> inv(n);
      for (int64_t l = 0; l < n; ++l) {
        T s = w[b * n + l];
        inv[l] = std::abs(static_cast<double>(s)) > cut ? T(1) / s : T(0);
      }
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < n; ++l)
            sum += static_cast<double>(static_cast<T>(V(b, i, l) * inv[l])) *
                   V(b, j, l);
          out(b, i, j) = static_cast<T>(sum);
        }
    }
  }
  return storeMats(out, A.dtype());
}

StatusOr<Tensor> pinvCommon(const Tensor &A, const Value &atol,
                            const Value &rtol, bool hermitian) {
  const char *api = "linalg.pinv";
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (hermitian)
    TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_ASSIGN_OR_RETURN(Tolerances tol, tolerances(A, atol, rtol));
  return TSIR_LINALG_DISPATCH(A.dtype(), pinvImpl, A, tol, hermitian);
}

// The tolerances are Values: a float, a Tensor or None, read by
// tolerancePerBatch.

/// linalg_pinv(self, float rcond, hermitian) and
/// linalg_pinv.rcond_tensor(self, Tensor rcond, hermitian): rtol = rcond.
StatusOr<Tensor> pinvRcond(Tensor A, Value rcond, bool hermitian) {
  return pinvCommon(A, Value(0.0), rcond, hermitian);
}

/// linalg_pinv.atol_rtol_{float,tensor}(self, atol, rtol, hermitian).
StatusOr<Tensor> pinvAtolRtol(Tensor A, Value atol, Value rtol,
                              bool hermitian) {
  return pinvCommon(A, atol, rtol, hermitian);
}

/// pinverse(self, rcond).
StatusOr<Tensor> pinverse(Tensor A, Value rcond) {
  return pinvCommon(A, Value(0.0), rcond, false);
}

template <class T>
StatusOr<Tensor> rankImpl(const Tensor &A, const Tolerances &tol,
                          bool hermitian) {
  std::vector<int64_t> batch = leading(A);
  int64_t count = 1;
  for (int64_t s : batch)
    count *= s;
  std::vector<int64_t> rank(count, 0);
  if (A.numel() > 0) {
    std::vector<T> S;
    int64_t k = std::min(A.size(-2), A.size(-1));
    if (!hermitian) {
      Mats<T> U, Vh;
      TSIR_RT_RETURN_IF_ERROR(
          gesddBatch<T>(A, 'N', U, S, Vh, "torch.linalg.matrix_rank"));
    } else {
      Mats<T> V;
      TSIR_RT_RETURN_IF_ERROR(
          syevdBatch<T>(A, false, false, V, S, "torch.linalg.matrix_rank"));
      for (T &s : S)
        s = std::abs(s);
    }
    for (int64_t b = 0; b < count; ++b) {
      double maxS = 0;
      for (int64_t l = 0; l < k; ++l)
        maxS = std::max(maxS, static_cast<double>(S[b * k + l]));
      double cut = std::max(tol.atol[b], tol.rtol[b] * maxS);
      for (int64_t l = 0; l < k; ++l)
        if (static_cast<double>(S[b * k + l]) > cut)
          ++rank[b];
    }
  }
  return storeVector(rank, batch, DType::Int64);
}

StatusOr<Tensor> rankCommon(const Tensor &A, const Value &atol,
                            const Value &rtol, bool hermitian) {
  const char *api = "torch.linalg.matrix_rank";
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(A, api, "input"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  if (hermitian)
    TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api, "input"));
  TSIR_RT_ASSIGN_OR_RETURN(Tolerances tol, tolerances(A, atol, rtol));
  return TSIR_LINALG_DISPATCH(A.dtype(), rankImpl, A, tol, hermitian);
}

/// linalg_matrix_rank(self, float tol, hermitian) and .tol_tensor: the
/// absolute tolerance, rtol 0.
StatusOr<Tensor> rankTol(Tensor A, Value tol, bool hermitian) {
  return rankCommon(A, tol, Value(0.0), hermitian);
}

/// linalg_matrix_rank.atol_rtol_{float,tensor}(self, atol, rtol, hermitian).
StatusOr<Tensor> rankAtolRtol(Tensor A, Value atol, Value rtol,
                              bool hermitian) {
  return rankCommon(A, atol, rtol, hermitian);
}

//===----------------------------------------------------------------------===//
// LDL
//===----------------------------------------------------------------------===//

/// LD, pivots and info.
template <class T>
StatusOr<std::tuple<Tensor, Tensor, Tensor>>
ldlFactorImpl(const Tensor &A, bool check, const char *api) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  Mats<T> a = loadMats<T>(A);
  int n = static_cast<int>(a.rows), lda = a.ld();
  for (int64_t b = 0; b < a.count(); ++b)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < j; ++i)
        a(b, i, j) = 0;
  std::vector<int> pivots(a.count() * n, 0), info(a.count(), 0);
  if (n > 0 && a.count() > 0) {
    char uplo = 'L';
    int lwork = -1, qinfo = 0;
    T query = 0;
    L->sytrf(&uplo, &n, a.at(0), &lda, pivots.data(), &query, &lwork, &qinfo,
             1);
    lwork = workSize(query);
    std::vector<T> work(lwork);
    for (int64_t b = 0; b < a.count(); ++b)
      L->sytrf(&uplo, &n, a.at(b), &lda, pivots.data() + b * n, work.data(),
               &lwork, &info[b], 1);
  }
  if (check)
    for (int64_t b = 0; b < a.count(); ++b)
      if (info[b] > 0)
        return Status::error(
            std::string(api) + ": " +
            (A.dim() == 2 ? "" : "(Batch element " + std::to_string(b) + "): ") +
            "The factorization could not be completed because the input is "
            "singular (LAPACK info " +
            std::to_string(info[b]) + ").");
  return std::make_tuple(storeMats(a, A.dtype()),
                         storeInts(pivots, withDims(leading(A), {n})),
                         storeInts(info, leading(A)));
}

// `hermitian` makes no difference to a real matrix: it is not read.

StatusOr<std::tuple<Tensor, Tensor, Tensor>>
ldlFactor(const Tensor &A, bool check, const char *api) {
  TSIR_RT_RETURN_IF_ERROR(checkSquare(A, api));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(A, api));
  return TSIR_LINALG_DISPATCH(A.dtype(), ldlFactorImpl, A, check, api);
}

/// linalg_ldl_factor(self, hermitian): the errors always checked.
StatusOr<std::tuple<Tensor, Tensor>> linalgLdlFactor(Tensor A, Value) {
  TSIR_RT_ASSIGN_OR_RETURN(auto factors,
                           ldlFactor(A, true, "torch.linalg.ldl_factor"));
  return std::make_tuple(std::get<0>(factors), std::get<1>(factors));
}

/// linalg_ldl_factor_ex(self, hermitian, check_errors).
StatusOr<std::tuple<Tensor, Tensor, Tensor>> linalgLdlFactorEx(Tensor A, Value,
                                                               bool check) {
  return ldlFactor(A, check, "torch.linalg.ldl_factor_ex");
}

template <class T>
StatusOr<Tensor> ldlSolveImpl(const Tensor &LD, const Tensor &pivots,
                              const Tensor &B) {
  TSIR_RT_ASSIGN_OR_RETURN(const lapack::Routines<T> *L,
                           lapack::routines<T>());
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> batch,
                           broadcastSizes(leading(LD), leading(B)));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> a, loadMatsExpanded<T>(LD, batch));
  TSIR_RT_ASSIGN_OR_RETURN(Mats<T> x, loadMatsExpanded<T>(B, batch));
  int n = static_cast<int>(a.rows), nrhs = static_cast<int>(x.cols);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor pe, pivots.expand(withDims(batch, {n})));
  Tensor pc = pe.to(DType::Int32);
  std::vector<int> piv(pc.dataAs<int32_t>(), pc.dataAs<int32_t>() + pc.numel());
  for (int p : piv)
    if (p == 0 || p > n || p < -n)
      return Status::error("torch.linalg.ldl_solve: pivots out of range");
  char uplo = 'L';
  int lda = a.ld(), ldb = x.ld(), info = 0;
  if (n > 0 && nrhs > 0)
    for (int64_t b = 0; b < x.count(); ++b)
      L->sytrs(&uplo, &n, &nrhs, a.at(b), &lda, piv.data() + b * n, x.at(b),
               &ldb, &info, 1);
  return storeMats(x, B.dtype());
}

/// linalg_ldl_solve(LD, pivots, B, hermitian).
StatusOr<Tensor> ldlSolve(Tensor LD, Tensor pivots, Tensor B, Value) {
  const char *api = "torch.linalg.ldl_solve";
  TSIR_RT_RETURN_IF_ERROR(checkSquare(LD, api, "LD"));
  TSIR_RT_RETURN_IF_ERROR(checkMatrix(B, api, "B"));
  TSIR_RT_RETURN_IF_ERROR(checkFloating(LD, api));
  if (B.dtype() != LD.dtype())
    return Status::error(std::string(api) +
                         ": LD and B must have the same dtype");
  if (B.size(-2) != LD.size(-1))
    return Status::error(std::string(api) +
                         ": B.shape[-2] must be equal to LD.shape[-1]");
  return TSIR_LINALG_DISPATCH(LD.dtype(), ldlSolveImpl, LD, pivots, B);
}

} // namespace

void registerLinalgDecompositionKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::linalg_qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, "
           "Tensor R)",
           bindKernel(linalgQr)},
          {"aten::qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)",
           bindKernel(legacyQr)},
          {"aten::geqrf(Tensor self) -> (Tensor a, Tensor tau)",
           bindKernel(geqrf)},
          {"aten::ormqr(Tensor self, Tensor input2, Tensor input3, bool "
           "left=True, bool transpose=False) -> Tensor",
           bindKernel(ormqr)},
          {"aten::linalg_householder_product(Tensor input, Tensor tau) -> "
           "Tensor",
           bindKernel(householderProduct)},
          {"aten::orgqr(Tensor self, Tensor input2) -> Tensor",
           bindKernel(householderProduct)},
          {"aten::linalg_svd(Tensor A, bool full_matrices=True, *, str? "
           "driver=None) -> (Tensor U, Tensor S, Tensor Vh)",
           bindKernel(linalgSvd)},
          {"aten::svd(Tensor self, bool some=True, bool compute_uv=True) -> "
           "(Tensor U, Tensor S, Tensor V)",
           bindKernel(legacySvd)},
          {"aten::linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor",
           bindKernel(svdvals)},
          {"aten::linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor "
           "eigenvalues, Tensor eigenvectors)",
           bindKernel(linalgEigh)},
          {"aten::linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor",
           bindKernel(linalgEigvalsh)},
          {"aten::symeig(Tensor self, bool eigenvectors=False, bool "
           "upper=True) -> (Tensor eigenvalues, Tensor eigenvectors)",
           bindKernel(symeig)},
          {"aten::linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, "
           "str? driver=None) -> (Tensor solution, Tensor residuals, Tensor "
           "rank, Tensor singular_values)",
           bindKernel(lstsq)},
          // Bare names: graph nodes whose overload was left open; the argument
          // count picks it.
          {"aten::linalg_pinv(Tensor self, float rcond, bool hermitian=False) "
           "-> Tensor",
           byArgumentCount(4, bindKernel(pinvAtolRtol), bindKernel(pinvRcond))},
          {"aten::linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool "
           "hermitian=False) -> Tensor",
           bindKernel(pinvRcond)},
          {"aten::linalg_pinv.atol_rtol_float(Tensor self, *, float? "
           "atol=None, float? rtol=None, bool hermitian=False) -> Tensor",
           bindKernel(pinvAtolRtol)},
          {"aten::linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? "
           "atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor",
           bindKernel(pinvAtolRtol)},
          {"aten::pinverse(Tensor self, float rcond=1.0000000000000001e-15) -> "
           "Tensor",
           bindKernel(pinverse)},
          {"aten::linalg_matrix_rank(Tensor self, float tol, bool "
           "hermitian=False) -> Tensor",
           byArgumentCount(4, bindKernel(rankAtolRtol), bindKernel(rankTol))},
          {"aten::linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool "
           "hermitian=False) -> Tensor",
           bindKernel(rankTol)},
          {"aten::linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? "
           "atol=None, float? rtol=None, bool hermitian=False) -> Tensor",
           bindKernel(rankAtolRtol)},
          {"aten::linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? "
           "atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor",
           bindKernel(rankAtolRtol)},
          {"aten::linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> "
           "(Tensor LD, Tensor pivots)",
           bindKernel(linalgLdlFactor)},
          {"aten::linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, "
           "bool check_errors=False) -> (Tensor LD, Tensor pivots, Tensor "
           "info)",
           bindKernel(linalgLdlFactorEx)},
          {"aten::linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool "
           "hermitian=False) -> Tensor",
           bindKernel(ldlSolve)},
      });
}

} // namespace tsir::rt
