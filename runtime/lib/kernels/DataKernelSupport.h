//===- DataKernelSupport.h - Helpers of the data-dependent kernels -*- C++
//-*-===//
//
// Private to the runtime: what the kernel files for data-dependent and
// uncompiled ops (SelectionKernels, ScatterReduceKernels,
// OrderStatisticKernels, ScanKernels, CombinatoricKernels) share:
// dimension wrapping, Float64/Int64 element copies, byte-exact
// element moves and the outer x size x inner split of a tensor along a dim.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_DATAKERNELSUPPORT_H
#define TSIR_RUNTIME_LIB_KERNELS_DATAKERNELSUPPORT_H

#include "KernelSupport.h"

#include <string>
#include <vector>

namespace tsir::rt::data {

/// The elements in row-major order, converted.
std::vector<double> toDoubles(const Tensor &tensor);
std::vector<int64_t> toInt64s(const Tensor &tensor);
/// A tensor of `sizes` from row-major `values`, converted to `dtype`.
StatusOr<Tensor> fromDoubles(const std::vector<double> &values,
                             const std::vector<int64_t> &sizes, DType dtype);
StatusOr<Tensor> fromInt64s(const std::vector<int64_t> &values,
                            const std::vector<int64_t> &sizes,
                            DType dtype = DType::Int64);

/// Copies element `from` of `src` over element `to` of `dst` (both
/// contiguous, same dtype).
void moveElement(const Tensor &dst, int64_t to, const Tensor &src,
                 int64_t from);

/// A tensor viewed as [outer, size, inner] around one dimension.
struct DimSplit {
  int64_t outer = 1;
  int64_t size = 1;
  int64_t inner = 1;
};
DimSplit splitAt(const std::vector<int64_t> &sizes, int64_t dim);

/// `sizes` without `dim` (or with it set to 1 when `keepdim`).
std::vector<int64_t> reducedSizes(const std::vector<int64_t> &sizes,
                                  int64_t dim, bool keepdim);

/// Promotion of two dtypes as torch's result_type for two tensors of the
/// same category (float beats integral beats bool; wider wins).
DType promoteTypes(DType a, DType b);

/// Is the value a floating-point NaN.
inline bool isNan(double v) { return v != v; }

} // namespace tsir::rt::data

#endif // TSIR_RUNTIME_LIB_KERNELS_DATAKERNELSUPPORT_H
