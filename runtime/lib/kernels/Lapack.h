//===- Lapack.h - LAPACK routines loaded at run time -------------*- C++ -*-===//
//
// Private to the runtime: the LAPACK (and the few BLAS) routines the linear
// algebra kernels call, for float and double. The runtime does not link
// LAPACK: the first use dlopens liblapack.so.3 (Debian's liblapack3, which
// torch calls too) and resolves every routine, so the runtime builds and
// runs without it and a kernel that needs it reports a Status error.
// dlsym on the library's handle also finds the BLAS it depends on.
//
// Every argument is a pointer (Fortran); character arguments are followed
// by their hidden lengths at the end, as gfortran passes them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_LAPACK_H
#define TSIR_RUNTIME_LIB_KERNELS_LAPACK_H

#include "tsir-runtime/Status.h"

#include <cstddef>

namespace tsir::rt::lapack {

using Len = size_t;

/// The routines of one precision: T is float (s*) or double (d*).
template <class T> struct Routines {
  void (*getrf)(const int *m, const int *n, T *a, const int *lda, int *ipiv,
                int *info);
  void (*getrs)(const char *trans, const int *n, const int *nrhs, const T *a,
                const int *lda, const int *ipiv, T *b, const int *ldb,
                int *info, Len);
  void (*potrf)(const char *uplo, const int *n, T *a, const int *lda,
                int *info, Len);
  void (*potrs)(const char *uplo, const int *n, const int *nrhs, const T *a,
                const int *lda, T *b, const int *ldb, int *info, Len);
  void (*potri)(const char *uplo, const int *n, T *a, const int *lda,
                int *info, Len);
  void (*geqrf)(const int *m, const int *n, T *a, const int *lda, T *tau,
                T *work, const int *lwork, int *info);
  void (*orgqr)(const int *m, const int *n, const int *k, T *a,
                const int *lda, const T *tau, T *work, const int *lwork,
                int *info);
  void (*ormqr)(const char *side, const char *trans, const int *m,
                const int *n, const int *k, const T *a, const int *lda,
                const T *tau, T *c, const int *ldc, T *work, const int *lwork,
                int *info, Len, Len);
  void (*gesdd)(const char *jobz, const int *m, const int *n, T *a,
                const int *lda, T *s, T *u, const int *ldu, T *vt,
                const int *ldvt, T *work, const int *lwork, int *iwork,
                int *info, Len);
  void (*syevd)(const char *jobz, const char *uplo, const int *n, T *a,
                const int *lda, T *w, T *work, const int *lwork, int *iwork,
                const int *liwork, int *info, Len, Len);
  void (*gels)(const char *trans, const int *m, const int *n, const int *nrhs,
               T *a, const int *lda, T *b, const int *ldb, T *work,
               const int *lwork, int *info, Len);
  void (*gelsy)(const int *m, const int *n, const int *nrhs, T *a,
                const int *lda, T *b, const int *ldb, int *jpvt,
                const T *rcond, int *rank, T *work, const int *lwork,
                int *info);
  void (*gelsd)(const int *m, const int *n, const int *nrhs, T *a,
                const int *lda, T *b, const int *ldb, T *s, const T *rcond,
                int *rank, T *work, const int *lwork, int *iwork, int *info);
  void (*gelss)(const int *m, const int *n, const int *nrhs, T *a,
                const int *lda, T *b, const int *ldb, T *s, const T *rcond,
                int *rank, T *work, const int *lwork, int *info);
  void (*sytrf)(const char *uplo, const int *n, T *a, const int *lda,
                int *ipiv, T *work, const int *lwork, int *info, Len);
  void (*sytrs)(const char *uplo, const int *n, const int *nrhs, const T *a,
                const int *lda, const int *ipiv, T *b, const int *ldb,
                int *info, Len);
  // BLAS.
  void (*trsm)(const char *side, const char *uplo, const char *transa,
               const char *diag, const int *m, const int *n, const T *alpha,
               const T *a, const int *lda, T *b, const int *ldb, Len, Len, Len,
               Len);
  void (*gemm)(const char *transa, const char *transb, const int *m,
               const int *n, const int *k, const T *alpha, const T *a,
               const int *lda, const T *b, const int *ldb, const T *beta, T *c,
               const int *ldc, Len, Len);
};

struct Library {
  Routines<float> s;
  Routines<double> d;
};

/// The loaded library, or why it could not be loaded (the same error on
/// every call).
StatusOr<const Library *> library();

/// The routines of precision T (float or double).
template <class T> StatusOr<const Routines<T> *> routines() {
  StatusOr<const Library *> lib = library();
  if (!lib.ok())
    return lib.status();
  if constexpr (sizeof(T) == sizeof(float))
    return &(*lib)->s;
  else
    return &(*lib)->d;
}

} // namespace tsir::rt::lapack

#endif // TSIR_RUNTIME_LIB_KERNELS_LAPACK_H
