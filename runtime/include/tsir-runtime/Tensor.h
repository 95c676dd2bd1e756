//===- Tensor.h - The runtime's tensor --------------------------*- C++ -*-===//
//
// Tensor is PyTorch's model of a tensor: a shared Storage plus sizes,
// strides (in elements), a storage offset (in elements) and a dtype. Views
// (view, permute, slice, expand, ...) make new Tensors over the same
// Storage, so writes through a view show in its base; copying a Tensor
// object copies the handle, not the data (use clone() for that).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_TENSOR_H
#define TSIR_RUNTIME_TENSOR_H

#include "tsir-runtime/DType.h"
#include "tsir-runtime/Device.h"
#include "tsir-runtime/Status.h"
#include "tsir-runtime/Storage.h"

#include <cassert>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tsir::rt {

/// The C++ type of a DType's elements, for dataAs<T>() checks. Float16 and
/// BFloat16 elements are accessed as their uint16_t bits.
template <class T> struct CppTypeTraits;
#define TSIR_RT_CPP_TYPE(T, ...)                                               \
  template <> struct CppTypeTraits<T> {                                        \
    static bool matches(DType type) {                                          \
      for (DType t : {__VA_ARGS__})                                            \
        if (t == type)                                                         \
          return true;                                                         \
      return false;                                                            \
    }                                                                          \
  };
TSIR_RT_CPP_TYPE(float, DType::Float32)
TSIR_RT_CPP_TYPE(double, DType::Float64)
TSIR_RT_CPP_TYPE(uint16_t, DType::Float16, DType::BFloat16)
TSIR_RT_CPP_TYPE(int64_t, DType::Int64)
TSIR_RT_CPP_TYPE(int32_t, DType::Int32)
TSIR_RT_CPP_TYPE(int16_t, DType::Int16)
TSIR_RT_CPP_TYPE(int8_t, DType::Int8)
TSIR_RT_CPP_TYPE(uint8_t, DType::UInt8, DType::Bool)
TSIR_RT_CPP_TYPE(bool, DType::Bool)
#undef TSIR_RT_CPP_TYPE

class Tensor {
public:
  /// An undefined tensor (torch's undefined Tensor: an optional tensor
  /// argument that was not given). Only defined() and toString() are
  /// meaningful on it.
  Tensor() = default;

  /// A tensor over `storage` with the given geometry, unchecked; asStrided
  /// is the checked way to make one.
  Tensor(Ref<Storage> storage, std::vector<int64_t> sizes,
         std::vector<int64_t> strides, int64_t storageOffset, DType dtype);

  //===--------------------------------------------------------------------===//
  // Creation
  //===--------------------------------------------------------------------===//

  /// A contiguous tensor of uninitialized memory. Aborts when the sizes are
  /// invalid or memory is exhausted; tryEmpty reports those as errors.
  static Tensor empty(std::vector<int64_t> sizes, DType dtype,
                      Device device = Device::cpu());
  static StatusOr<Tensor> tryEmpty(std::vector<int64_t> sizes, DType dtype,
                                   Device device = Device::cpu());
  /// A contiguous tensor in memory from `allocator`.
  static StatusOr<Tensor> tryEmpty(std::vector<int64_t> sizes, DType dtype,
                                   Allocator &allocator);
  static Tensor zeros(std::vector<int64_t> sizes, DType dtype,
                      Device device = Device::cpu());
  /// A contiguous CPU tensor holding a COPY of `numel(sizes)` elements at
  /// `data` (unlike torch::from_blob, which wraps without copying).
  static Tensor fromBlob(const void *data, std::vector<int64_t> sizes,
                         DType dtype);
  /// A 0-d tensor holding `value` converted to `dtype`.
  static Tensor scalar(double value, DType dtype = DType::Float32);

  //===--------------------------------------------------------------------===//
  // Geometry and data
  //===--------------------------------------------------------------------===//

  bool defined() const { return static_cast<bool>(storageRef); }
  int64_t dim() const { return static_cast<int64_t>(sizeVec.size()); }
  int64_t numel() const;
  const std::vector<int64_t> &sizes() const { return sizeVec; }
  const std::vector<int64_t> &strides() const { return strideVec; }
  /// Size of dimension `d`; negative `d` counts from the end.
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  DType dtype() const { return type; }
  size_t elementSize() const { return dtypeSize(type); }
  Device device() const;
  const Ref<Storage> &storage() const { return storageRef; }
  int64_t storageOffset() const { return offset; }
  /// Bytes a contiguous copy would take (numel * elementSize).
  size_t nbytes() const;

  /// Row-major dense with no gaps (size-1 dimensions' strides ignored, as
  /// torch does).
  bool isContiguous() const;

  /// The first element (storage data + offset); nullptr when undefined.
  void *data() const;
  template <class T> T *dataAs() const {
    assert(CppTypeTraits<T>::matches(type) && "dataAs<T> of another dtype");
    return static_cast<T *>(data());
  }

  bool sharesStorageWith(const Tensor &other) const {
    return defined() && storageRef == other.storageRef;
  }

  //===--------------------------------------------------------------------===//
  // Views (share storage; errors for invalid arguments)
  //===--------------------------------------------------------------------===//

  /// Same elements, new sizes; one size may be -1 (inferred). Works when the
  /// strides allow it without a copy (always for contiguous tensors), as
  /// torch's view does.
  StatusOr<Tensor> view(std::vector<int64_t> newSizes) const;
  /// view() when possible, else a contiguous copy viewed.
  StatusOr<Tensor> reshape(std::vector<int64_t> newSizes) const;
  StatusOr<Tensor> permute(const std::vector<int64_t> &dims) const;
  StatusOr<Tensor> transpose(int64_t dim0, int64_t dim1) const;
  /// Python slicing along `dim`: negative bounds count from the end, bounds
  /// are clamped, `step` must be positive.
  StatusOr<Tensor> slice(int64_t dim, int64_t start = 0,
                         int64_t end = std::numeric_limits<int64_t>::max(),
                         int64_t step = 1) const;
  /// Removes `dim`, taking element `index` of it (negative counts from the
  /// end).
  StatusOr<Tensor> select(int64_t dim, int64_t index) const;
  /// Broadcasts to `newSizes` (-1 keeps a size) with stride 0 on the
  /// broadcast dimensions.
  StatusOr<Tensor> expand(const std::vector<int64_t> &newSizes) const;
  /// Any geometry within the storage's bounds.
  StatusOr<Tensor> asStrided(std::vector<int64_t> newSizes,
                             std::vector<int64_t> newStrides,
                             int64_t newStorageOffset) const;
  /// Drops every size-1 dimension.
  Tensor squeeze() const;
  /// Drops `dim` if its size is 1 (else returns the same view, as torch).
  StatusOr<Tensor> squeeze(int64_t dim) const;
  /// Inserts a size-1 dimension at `dim` (in [-dim()-1, dim()]).
  StatusOr<Tensor> unsqueeze(int64_t dim) const;

  //===--------------------------------------------------------------------===//
  // Copies
  //===--------------------------------------------------------------------===//

  /// This tensor if contiguous, else a contiguous copy.
  Tensor contiguous() const;
  /// A contiguous copy with fresh storage.
  Tensor clone() const;
  /// Copies `src` into this tensor's elements. `src` must have the same
  /// sizes or broadcast to them; dtypes are converted as torch's copy_
  /// does (float -> int truncates, anything -> bool is `!= 0`). Overlapping
  /// source and destination are handled.
  Status copyFrom(const Tensor &src);
  /// A contiguous copy converted to `dtype` (this tensor if it already is
  /// contiguous with that dtype).
  Tensor to(DType dtype) const;
  /// Sets every element to `value` converted to the dtype.
  void fill(double value);

  /// "Float[2, 3]" ("Undefined" for an undefined tensor).
  std::string toString() const;

private:
  Ref<Storage> storageRef;
  std::vector<int64_t> sizeVec;
  std::vector<int64_t> strideVec;
  int64_t offset = 0;
  DType type = DType::Float32;
};

/// The row-major strides of a tensor of `sizes`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &sizes);

/// The product of `sizes`; an error when one is negative or it overflows.
StatusOr<int64_t> checkedNumel(const std::vector<int64_t> &sizes);

/// "[2, 3]".
std::string sizesToString(const std::vector<int64_t> &sizes);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_TENSOR_H
