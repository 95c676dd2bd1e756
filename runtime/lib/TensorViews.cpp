//===- TensorViews.cpp - Views sharing a tensor's storage -----------------===//
//
// view, reshape, permute, transpose, slice, select, expand, asStrided,
// squeeze and unsqueeze: each makes a new geometry over the same Storage,
// with torch's rules for what is allowed and torch's wording for errors.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Tensor.h"

#include <optional>

namespace tsir::rt {

namespace {
/// Wraps a possibly negative dimension into [0, rank) (or [0, rank] when a
/// new trailing dimension is allowed, as for unsqueeze).
StatusOr<int64_t> wrapDim(int64_t dim, int64_t rank, const char *op,
                          bool allowEnd = false) {
  int64_t bound = allowEnd ? rank + 1 : rank;
  if (bound <= 0)
    return Status::error(std::string(op) +
                         ": cannot be applied to a 0-dim tensor");
  if (dim < -bound || dim >= bound)
    return Status::error(std::string(op) +
                         ": dimension out of range (expected to be in range "
                         "of [" +
                         std::to_string(-bound) + ", " +
                         std::to_string(bound - 1) + "], but got " +
                         std::to_string(dim) + ")");
  return dim < 0 ? dim + bound : dim;
}

Status requireDefined(const Tensor &tensor, const char *op) {
  if (!tensor.defined())
    return Status::error(std::string(op) + ": the tensor is undefined");
  return Status::ok();
}

/// torch's computeStride: the strides that let `newSizes` view memory laid
/// out as (`oldSizes`, `oldStrides`), or nullopt if no strides can. Each
/// run of dimensions that is contiguous in memory ("chunk") may be split or
/// merged freely; a view may not cross a chunk boundary.
std::optional<std::vector<int64_t>>
computeViewStrides(const std::vector<int64_t> &oldSizes,
                   const std::vector<int64_t> &oldStrides,
                   const std::vector<int64_t> &newSizes) {
  std::vector<int64_t> newStrides(newSizes.size(), 1);
  if (oldSizes.empty())
    return newStrides;
  int64_t numel = 1;
  for (int64_t size : oldSizes)
    numel *= size;
  if (numel == 0 && oldSizes == newSizes)
    return oldStrides;
  int64_t viewDim = static_cast<int64_t>(newSizes.size()) - 1;
  if (numel == 0) {
    for (int64_t d = viewDim; d >= 0; --d)
      newStrides[d] = d == viewDim ? 1
                                   : std::max<int64_t>(newSizes[d + 1], 1) *
                                         newStrides[d + 1];
    return newStrides;
  }
  int64_t chunkBaseStride = oldStrides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t d = static_cast<int64_t>(oldSizes.size()) - 1; d >= 0; --d) {
    tensorNumel *= oldSizes[d];
    bool chunkEnds =
        d == 0 || (oldSizes[d - 1] != 1 &&
                   oldStrides[d - 1] != tensorNumel * chunkBaseStride);
    if (!chunkEnds)
      continue;
    while (viewDim >= 0 &&
           (viewNumel < tensorNumel || newSizes[viewDim] == 1)) {
      newStrides[viewDim] = viewNumel * chunkBaseStride;
      viewNumel *= newSizes[viewDim];
      --viewDim;
    }
    if (viewNumel != tensorNumel)
      return std::nullopt;
    if (d > 0) {
      chunkBaseStride = oldStrides[d - 1];
      tensorNumel = 1;
      viewNumel = 1;
    }
  }
  if (viewDim != -1)
    return std::nullopt;
  return newStrides;
}

/// Replaces a -1 in `sizes` by what makes the element count `numel`.
Status inferSize(std::vector<int64_t> &sizes, int64_t numel) {
  std::optional<size_t> inferred;
  int64_t known = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (inferred)
        return Status::error("only one dimension can be inferred");
      inferred = i;
    } else if (sizes[i] < 0) {
      return Status::error("invalid shape dimension " +
                           std::to_string(sizes[i]));
    } else if (__builtin_mul_overflow(known, sizes[i], &known)) {
      return Status::error("shape " + sizesToString(sizes) +
                           " has more elements than fit in 64 bits");
    }
  }
  std::string invalid = "shape '" + sizesToString(sizes) +
                        "' is invalid for input of size " +
                        std::to_string(numel);
  if (inferred) {
    if (known == 0 || numel % known != 0)
      return Status::error(invalid);
    sizes[*inferred] = numel / known;
  } else if (known != numel) {
    return Status::error(invalid);
  }
  return Status::ok();
}
} // namespace

StatusOr<Tensor> Tensor::view(std::vector<int64_t> newSizes) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "view"));
  TSIR_RT_RETURN_IF_ERROR(inferSize(newSizes, numel()).withContext("view"));
  std::optional<std::vector<int64_t>> newStrides =
      computeViewStrides(sizeVec, strideVec, newSizes);
  if (!newStrides)
    return Status::error(
        "view: view size is not compatible with input tensor's size and "
        "stride (at least one dimension spans across two contiguous "
        "subspaces); use reshape instead");
  return Tensor(storageRef, std::move(newSizes), std::move(*newStrides), offset,
                type);
}

StatusOr<Tensor> Tensor::reshape(std::vector<int64_t> newSizes) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "reshape"));
  TSIR_RT_RETURN_IF_ERROR(inferSize(newSizes, numel()).withContext("reshape"));
  if (computeViewStrides(sizeVec, strideVec, newSizes))
    return view(std::move(newSizes));
  return contiguous().view(std::move(newSizes));
}

StatusOr<Tensor> Tensor::permute(const std::vector<int64_t> &dims) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "permute"));
  if (static_cast<int64_t>(dims.size()) != dim())
    return Status::error("permute: number of dims don't match (" +
                         std::to_string(dims.size()) + " given for a " +
                         std::to_string(dim()) + "-d tensor)");
  std::vector<int64_t> newSizes(dims.size()), newStrides(dims.size());
  std::vector<bool> seen(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t d, wrapDim(dims[i], dim(), "permute"));
    if (seen[d])
      return Status::error("permute: repeated dim " + std::to_string(d) +
                           " in " + sizesToString(dims));
    seen[d] = true;
    newSizes[i] = sizeVec[d];
    newStrides[i] = strideVec[d];
  }
  return Tensor(storageRef, std::move(newSizes), std::move(newStrides), offset,
                type);
}

StatusOr<Tensor> Tensor::transpose(int64_t dim0, int64_t dim1) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "transpose"));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t a, wrapDim(dim0, dim(), "transpose"));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t b, wrapDim(dim1, dim(), "transpose"));
  Tensor result = *this;
  std::swap(result.sizeVec[a], result.sizeVec[b]);
  std::swap(result.strideVec[a], result.strideVec[b]);
  return result;
}

StatusOr<Tensor> Tensor::slice(int64_t dim, int64_t start, int64_t end,
                               int64_t step) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "slice"));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t d, wrapDim(dim, this->dim(), "slice"));
  if (step <= 0)
    return Status::error("slice: step must be positive, got " +
                         std::to_string(step));
  int64_t size = sizeVec[d];
  if (start < 0)
    start = start < -size ? 0 : start + size;
  if (end < 0)
    end = end < -size ? 0 : end + size;
  start = std::min(start, size);
  end = std::min(std::max(end, start), size);
  Tensor result = *this;
  result.offset += start * strideVec[d];
  result.sizeVec[d] = (end - start + step - 1) / step;
  result.strideVec[d] *= step;
  return result;
}

StatusOr<Tensor> Tensor::select(int64_t dim, int64_t index) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "select"));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t d, wrapDim(dim, this->dim(), "select"));
  int64_t size = sizeVec[d];
  if (index < -size || index >= size)
    return Status::error("select: index " + std::to_string(index) +
                         " out of range for dimension " + std::to_string(d) +
                         " of size " + std::to_string(size));
  if (index < 0)
    index += size;
  Tensor result = *this;
  result.offset += index * strideVec[d];
  result.sizeVec.erase(result.sizeVec.begin() + d);
  result.strideVec.erase(result.strideVec.begin() + d);
  return result;
}

StatusOr<Tensor> Tensor::expand(const std::vector<int64_t> &newSizes) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "expand"));
  int64_t newRank = static_cast<int64_t>(newSizes.size());
  if (newRank < dim())
    return Status::error("expand: the number of sizes provided (" +
                         std::to_string(newRank) +
                         ") must be greater or equal to the number of "
                         "dimensions in the tensor (" +
                         std::to_string(dim()) + ")");
  std::vector<int64_t> sizes(newRank), strides(newRank);
  for (int64_t i = newRank - 1; i >= 0; --i) {
    int64_t old = i - (newRank - dim());
    int64_t target = newSizes[i];
    if (old < 0) {
      if (target < 0)
        return Status::error(
            "expand: the expanded size " + std::to_string(target) +
            " is not allowed in a leading, non-existing dimension " +
            std::to_string(i));
      sizes[i] = target;
      strides[i] = 0;
      continue;
    }
    if (target == -1 || target == sizeVec[old]) {
      sizes[i] = sizeVec[old];
      strides[i] = strideVec[old];
    } else if (sizeVec[old] == 1 && target >= 0) {
      sizes[i] = target;
      strides[i] = 0;
    } else {
      return Status::error(
          "expand: the expanded size of the tensor (" + std::to_string(target) +
          ") must match the existing size (" + std::to_string(sizeVec[old]) +
          ") at non-singleton dimension " + std::to_string(i) +
          ". Target sizes: " + sizesToString(newSizes) +
          ". Tensor sizes: " + sizesToString(sizeVec));
    }
  }
  return Tensor(storageRef, std::move(sizes), std::move(strides), offset, type);
}

StatusOr<Tensor> Tensor::asStrided(std::vector<int64_t> newSizes,
                                   std::vector<int64_t> newStrides,
                                   int64_t newStorageOffset) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "asStrided"));
  if (newSizes.size() != newStrides.size())
    return Status::error("asStrided: " + std::to_string(newSizes.size()) +
                         " sizes but " + std::to_string(newStrides.size()) +
                         " strides");
  if (newStorageOffset < 0)
    return Status::error("asStrided: negative storage offset " +
                         std::to_string(newStorageOffset));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t count, checkedNumel(newSizes));
  // The last element reached must lie inside the storage.
  int64_t last = newStorageOffset;
  for (size_t i = 0; i < newSizes.size(); ++i) {
    if (newStrides[i] < 0)
      return Status::error("asStrided: negative stride " +
                           std::to_string(newStrides[i]));
    int64_t span;
    if (count != 0 &&
        (__builtin_mul_overflow(newSizes[i] - 1, newStrides[i], &span) ||
         __builtin_add_overflow(last, span, &last)))
      return Status::error("asStrided: geometry overflows 64 bits");
  }
  int64_t capacity = static_cast<int64_t>(storageRef->nbytes() / elementSize());
  bool fits = count == 0 ? newStorageOffset <= capacity : last < capacity;
  if (!fits)
    return Status::error("asStrided: sizes " + sizesToString(newSizes) +
                         ", strides " + sizesToString(newStrides) +
                         " and offset " + std::to_string(newStorageOffset) +
                         " reach past the storage's " +
                         std::to_string(capacity) + " elements");
  return Tensor(storageRef, std::move(newSizes), std::move(newStrides),
                newStorageOffset, type);
}

Tensor Tensor::squeeze() const {
  Tensor result = *this;
  result.sizeVec.clear();
  result.strideVec.clear();
  for (size_t i = 0; i < sizeVec.size(); ++i) {
    if (sizeVec[i] == 1)
      continue;
    result.sizeVec.push_back(sizeVec[i]);
    result.strideVec.push_back(strideVec[i]);
  }
  return result;
}

StatusOr<Tensor> Tensor::squeeze(int64_t dim) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "squeeze"));
  // torch lets a 0-d tensor squeeze dim 0 or -1 and returns it unchanged.
  if (this->dim() == 0 && (dim == 0 || dim == -1))
    return *this;
  TSIR_RT_ASSIGN_OR_RETURN(int64_t d, wrapDim(dim, this->dim(), "squeeze"));
  Tensor result = *this;
  if (sizeVec[d] != 1)
    return result;
  result.sizeVec.erase(result.sizeVec.begin() + d);
  result.strideVec.erase(result.strideVec.begin() + d);
  return result;
}

StatusOr<Tensor> Tensor::unsqueeze(int64_t dim) const {
  TSIR_RT_RETURN_IF_ERROR(requireDefined(*this, "unsqueeze"));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t d,
                           wrapDim(dim, this->dim(), "unsqueeze", true));
  int64_t newStride = d < this->dim() ? sizeVec[d] * strideVec[d] : 1;
  Tensor result = *this;
  result.sizeVec.insert(result.sizeVec.begin() + d, 1);
  result.strideVec.insert(result.strideVec.begin() + d, newStride);
  return result;
}

} // namespace tsir::rt
