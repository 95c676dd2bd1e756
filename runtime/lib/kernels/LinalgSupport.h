//===- LinalgSupport.h - Shared pieces of the linear algebra kernels -*- C++
//-*-===//
//
// Private to the runtime: what LinalgKernels.cpp, LinalgDecompositions.cpp
// and LinalgNorms.cpp share. Matrices are handed to LAPACK column-major, a
// batch at a time (Mats<T>), in float (Float32) or double (Float64), the
// routines torch itself calls for those dtypes; results go back to tensors
// of the input's dtype. Each kernel is a function of its schema's arguments
// registered with bindKernel; the templated computations return their
// results (a tensor or a tuple of them) rather than pushing them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_LINALGSUPPORT_H
#define TSIR_RUNTIME_LIB_KERNELS_LINALGSUPPORT_H

#include "KernelSupport.h"
#include "Lapack.h"
#include "tsir-runtime/Stack.h"

#include <string>
#include <tuple>
#include <vector>

namespace tsir::rt {
class KernelRegistry;

void registerLinalgDecompositionKernels(KernelRegistry &registry);
void registerLinalgNormKernels(KernelRegistry &registry);

namespace linalg {

template <class T> constexpr DType dtypeOf() {
  return sizeof(T) == sizeof(float) ? DType::Float32 : DType::Float64;
}

/// "Long", "Int", ... as torch names a dtype in its messages.
std::string torchTypeName(DType dtype);

/// Float32 or Float64, else torch's "<op>: Expected a floating point or
/// complex tensor as input. Got Long".
Status checkFloating(const Tensor &t, const std::string &op);
/// At least 2 dimensions: "<op>: The input tensor A must have at least 2
/// dimensions."
Status checkMatrix(const Tensor &t, const std::string &op,
                   const std::string &name = "A");
/// checkMatrix and square: "<op>: A must be batches of square matrices, but
/// they are 2 by 3 matrices".
Status checkSquare(const Tensor &t, const std::string &op,
                   const std::string &name = "A");

/// A batch of matrices stored column-major one after another.
template <class T> struct Mats {
  std::vector<int64_t> batch;
  int64_t rows = 0, cols = 0;
  std::vector<T> data;

  int64_t count() const {
    int64_t n = 1;
    for (int64_t s : batch)
      n *= s;
    return n;
  }
  int64_t stride() const { return rows * cols; }
  T *at(int64_t b) { return data.data() + b * stride(); }
  const T *at(int64_t b) const { return data.data() + b * stride(); }
  T &operator()(int64_t b, int64_t i, int64_t j) {
    return data[b * stride() + j * rows + i];
  }
  T operator()(int64_t b, int64_t i, int64_t j) const {
    return data[b * stride() + j * rows + i];
  }
  /// Leading dimension for LAPACK (at least 1).
  int ld() const { return static_cast<int>(rows > 0 ? rows : 1); }
};

template <class T>
Mats<T> zeroMats(std::vector<int64_t> batch, int64_t rows, int64_t cols) {
  Mats<T> m;
  m.batch = std::move(batch);
  m.rows = rows;
  m.cols = cols;
  m.data.assign(static_cast<size_t>(m.count() * rows * cols), T(0));
  return m;
}

/// The matrices of `t` (dim >= 2), converted to T.
template <class T> Mats<T> loadMats(const Tensor &t) {
  Tensor c = t.to(dtypeOf<T>());
  std::vector<int64_t> batch(t.sizes().begin(), t.sizes().end() - 2);
  Mats<T> m = zeroMats<T>(batch, t.size(-2), t.size(-1));
  const T *src = c.template dataAs<T>();
  int64_t count = m.count();
  for (int64_t b = 0; b < count; ++b)
    for (int64_t i = 0; i < m.rows; ++i)
      for (int64_t j = 0; j < m.cols; ++j)
        m(b, i, j) = src[b * m.stride() + i * m.cols + j];
  return m;
}

/// `t` broadcast to batch shape `batch` first.
template <class T>
StatusOr<Mats<T>> loadMatsExpanded(const Tensor &t,
                                   const std::vector<int64_t> &batch) {
  std::vector<int64_t> sizes = batch;
  sizes.push_back(t.size(-2));
  sizes.push_back(t.size(-1));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor expanded, t.expand(sizes));
  return loadMats<T>(expanded);
}

/// A tensor [batch..., rows, cols] of `dtype` holding `m`.
template <class T> Tensor storeMats(const Mats<T> &m, DType dtype) {
  std::vector<int64_t> sizes = m.batch;
  sizes.push_back(m.rows);
  sizes.push_back(m.cols);
  Tensor out = Tensor::empty(sizes, dtypeOf<T>());
  T *dst = out.template dataAs<T>();
  int64_t count = m.count();
  for (int64_t b = 0; b < count; ++b)
    for (int64_t i = 0; i < m.rows; ++i)
      for (int64_t j = 0; j < m.cols; ++j)
        dst[b * m.stride() + i * m.cols + j] = m(b, i, j);
  return out.to(dtype);
}

/// A tensor of `sizes` holding `data` (row-major), converted to `dtype`.
template <class E>
Tensor storeVector(const std::vector<E> &data, std::vector<int64_t> sizes,
                   DType dtype) {
  Tensor out = Tensor::empty(std::move(sizes), DType::Float64);
  double *dst = out.dataAs<double>();
  for (size_t i = 0; i < data.size(); ++i)
    dst[i] = static_cast<double>(data[i]);
  return out.to(dtype);
}

/// An int32 tensor of `sizes` holding `data`.
Tensor storeInts(const std::vector<int> &data, std::vector<int64_t> sizes);

/// The row-major elements of `t` converted to double.
std::vector<double> doubles(const Tensor &t);

/// sizes[:-k] of `t`.
std::vector<int64_t> leading(const Tensor &t, int64_t k = 2);

/// Appends dims to a shape.
std::vector<int64_t> withDims(std::vector<int64_t> shape,
                              std::initializer_list<int64_t> dims);

/// Torch's message for a failed factorization reported by LAPACK's `info`
/// (positive) for batch element `b`: `kind` is "inv", "solve", "cholesky",
/// "lu_factor", "eigh", "svd" or "ldl".
Status infoError(const std::string &api, const std::string &kind, int info,
                 int64_t b, bool isMatrix);

/// Row-major C (m x n) = A (m x k) * B (k x n) in double.
void matmul(const double *a, const double *b, double *c, int64_t m, int64_t k,
            int64_t n);

/// The result of `fn<double>(...)` for Float64, else of `fn<float>(...)`
/// (after checkFloating); both instantiations return the same type.
#define TSIR_LINALG_DISPATCH(dtype, fn, ...)                                   \
  ((dtype) == ::tsir::rt::DType::Float64 ? fn<double>(__VA_ARGS__)             \
                                         : fn<float>(__VA_ARGS__))

/// The first of several results: what an overload returns that leaves out
/// the rest (the info of an `_ex` overload, the eigenvectors).
template <class... Rest>
StatusOr<Tensor> firstResult(StatusOr<std::tuple<Tensor, Rest...>> results) {
  if (!results.ok())
    return results.status();
  return std::get<0>(*std::move(results));
}

/// Workspace size from a LAPACK query (lwork = -1).
template <class T> int workSize(T query) {
  int n = static_cast<int>(query);
  return n > 1 ? n : 1;
}

} // namespace linalg
} // namespace tsir::rt

#endif // TSIR_RUNTIME_LIB_KERNELS_LINALGSUPPORT_H
