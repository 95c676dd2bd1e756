//===- StridedViewKernels.cpp - as_strided and the scatters into views ----===//
//
// as_strided, as_strided_scatter and diagonal_scatter: ops that address a
// tensor's storage by explicit strides. tsir's values are dense and own
// their storage, so a value's storage is its elements in row-major order,
// which is what torch's storage is for a contiguous tensor that owns it.
// (A value that torch would hold as a view of a larger storage is refused
// before it reaches here: see isStorageAddressingOp in the compiler.)
//
// Each returns a fresh dense tensor: as_strided a copy of the view (the
// graph reads it as a value; prim-remove-mutation has already turned writes
// through views into functional ops), the scatters a copy of `self` with
// `src` written through the view.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <algorithm>

namespace tsir::rt {

using namespace data;

namespace {

/// The view of `sizes`, `strides` and `storageOffset` into `dense` (a
/// fresh contiguous tensor), with torch's checks and messages (as_strided's negative-stride
/// check, setStorage's bounds check against `dense`'s element count).
StatusOr<Tensor> stridedViewOf(const Tensor &dense,
                               const std::vector<int64_t> &sizes,
                               const std::vector<int64_t> &strides,
                               int64_t storageOffset) {
  if (sizes.size() != strides.size())
    return Status::error("mismatch in length of strides and shape");
  for (int64_t stride : strides)
    if (stride < 0)
      return Status::error("as_strided: Negative strides are not supported "
                           "at the moment, got strides: " +
                           sizesToString(strides));
  if (storageOffset < 0)
    return Status::error("Tensor: invalid storage offset " +
                         std::to_string(storageOffset));
  // The storage size the view needs, as setStorage computes it.
  int64_t needed = 0;
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0)
      empty = true;
    needed += (sizes[i] - 1) * strides[i];
  }
  needed = empty ? 0 : needed + storageOffset + 1;
  if (needed > dense.numel()) {
    int64_t itemsize = static_cast<int64_t>(dense.elementSize());
    return Status::error(
        "setStorage: sizes " + sizesToString(sizes) + ", strides " +
        sizesToString(strides) + ", storage offset " +
        std::to_string(storageOffset) + ", and itemsize " +
        std::to_string(itemsize) + " requiring a storage size of " +
        std::to_string(needed * itemsize) +
        " are out of bounds for storage of size " +
        std::to_string(dense.numel() * itemsize));
  }
  return dense.asStrided(sizes, strides, storageOffset);
}

/// The view the `size`, `stride` and `storage_offset` arguments describe
/// (no offset for None).
StatusOr<Tensor> stridedViewOf(const Tensor &dense,
                               const std::vector<int64_t> &size,
                               const std::vector<int64_t> &stride,
                               std::optional<int64_t> storageOffset) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, nonNegativeSizes(size));
  return stridedViewOf(dense, sizes, stride, storageOffset.value_or(0));
}

/// Copies `src` into `view` (a view into a scatter's result), which must
/// have src's sizes.
Status writeInto(Tensor view, const Tensor &src) {
  if (view.sizes() != src.sizes())
    return Status::error("expected src to have a size equal to the slice "
                         "of self. src size = " +
                         sizesToString(src.sizes()) +
                         ", slice size = " + sizesToString(view.sizes()));
  return view.copyFrom(src);
}

/// aten::as_strided(Tensor self, int[] size, int[] stride,
///                  int? storage_offset=None) -> Tensor
StatusOr<Tensor> asStrided(Tensor self, std::vector<int64_t> size,
                           std::vector<int64_t> stride,
                           std::optional<int64_t> storageOffset) {
  Tensor dense = self.clone();
  TSIR_RT_ASSIGN_OR_RETURN(Tensor view,
                           stridedViewOf(dense, size, stride, storageOffset));
  return view.clone();
}

/// aten::as_strided_scatter(Tensor self, Tensor src, int[] size,
///                          int[] stride, int? storage_offset=None) -> Tensor
StatusOr<Tensor> asStridedScatter(Tensor self, Tensor src,
                                  std::vector<int64_t> size,
                                  std::vector<int64_t> stride,
                                  std::optional<int64_t> storageOffset) {
  Tensor out = self.clone();
  TSIR_RT_ASSIGN_OR_RETURN(Tensor view,
                           stridedViewOf(out, size, stride, storageOffset));
  TSIR_RT_RETURN_IF_ERROR(writeInto(view, src));
  return out;
}

/// aten::diagonal_scatter(Tensor self, Tensor src, int offset=0,
///                        int dim1=0, int dim2=1) -> Tensor
/// The diagonal is torch's diagonal view: the other dims in order, then
/// the diagonal, whose stride is the sum of dim1's and dim2's.
StatusOr<Tensor> diagonalScatter(Tensor self, Tensor src, int64_t diagonal,
                                 int64_t rawDim1, int64_t rawDim2) {
  if (self.dim() < 2)
    return Status::error("diagonal dimensions requires ndim larger than 1");
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim1, wrapDim(rawDim1, self.dim()));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim2, wrapDim(rawDim2, self.dim()));
  if (dim1 == dim2)
    return Status::error("diagonal dimensions cannot be identical " +
                         std::to_string(rawDim1) + ", " +
                         std::to_string(rawDim2));
  Tensor out = self.clone();
  int64_t rows = out.size(dim1), columns = out.size(dim2);
  int64_t length =
      diagonal >= 0 ? std::min(rows, columns - diagonal)
                    : std::min(rows + diagonal, columns);
  length = std::max<int64_t>(length, 0);
  int64_t offset = 0;
  if (length > 0)
    offset = diagonal >= 0 ? diagonal * out.stride(dim2)
                           : -diagonal * out.stride(dim1);
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < out.dim(); ++d)
    if (d != dim1 && d != dim2) {
      sizes.push_back(out.size(d));
      strides.push_back(out.stride(d));
    }
  sizes.push_back(length);
  strides.push_back(out.stride(dim1) + out.stride(dim2));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor view, out.asStrided(sizes, strides, offset));
  TSIR_RT_RETURN_IF_ERROR(writeInto(view, src));
  return out;
}

} // namespace

void registerStridedViewKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry, {
                    {"aten::as_strided(Tensor self, int[] size, int[] stride, "
                     "int? storage_offset=None) -> Tensor",
                     bindKernel(asStrided)},
                    {"aten::as_strided_scatter(Tensor self, Tensor src, int[] "
                     "size, int[] stride, int? storage_offset=None) -> Tensor",
                     bindKernel(asStridedScatter)},
                    {"aten::diagonal_scatter(Tensor self, Tensor src, int "
                     "offset=0, int dim1=0, int dim2=1) -> Tensor",
                     bindKernel(diagonalScatter)},
                });
}

} // namespace tsir::rt
