//===- MemRef.h - The bridge to MLIR-compiled code --------------*- C++ -*-===//
//
// Compiled code takes and returns tensors as MLIR's ranked memref
// descriptors (StridedMemRefType in mlir/ExecutionEngine/CRunnerUtils.h):
//
//   struct { T *allocated; T *aligned; int64_t offset;
//            int64_t sizes[rank]; int64_t strides[rank]; }
//
// MemRefDescriptor builds that layout for any rank from a Tensor;
// tensorFromOwnedMemRef and tensorViewOfMemRef turn a descriptor back into
// a Tensor, owning the buffer or viewing an existing storage.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_MEMREF_H
#define TSIR_RUNTIME_MEMREF_H

#include "tsir-runtime/Tensor.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tsir::rt {

/// MLIR's unranked memref: the rank and a pointer to a ranked descriptor.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

/// A ranked memref descriptor of any rank, stored as (3 + 2 * rank) 64-bit
/// words. Holds raw pointers into a tensor's storage and no reference: the
/// tensor must outlive every call the descriptor is passed to.
class MemRefDescriptor {
public:
  /// A descriptor of `rank` with null pointers and zero sizes.
  explicit MemRefDescriptor(int rank);

  /// allocated = the storage's base pointer, aligned = its data pointer,
  /// offset = the tensor's storage offset, sizes and strides in elements.
  static MemRefDescriptor fromTensor(const Tensor &tensor);

  /// The struct to pass (by pointer) to an `_mlir_ciface_` function.
  void *get() { return words.data(); }
  const void *get() const { return words.data(); }
  int rank() const { return descriptorRank; }
  static size_t sizeInBytes(int rank) { return (3 + 2 * size_t(rank)) * 8; }

  void *allocated() const;
  void *aligned() const;
  int64_t offset() const { return words[2]; }
  int64_t size(int d) const { return words[3 + d]; }
  int64_t stride(int d) const { return words[3 + descriptorRank + d]; }

  /// An unranked memref pointing at this descriptor.
  UnrankedMemRef unranked() { return {descriptorRank, get()}; }

private:
  int descriptorRank;
  std::vector<int64_t> words;
};

/// The "allocated" pointer MLIR's memref.get_global lowering stores for a
/// constant global, which must never be freed.
inline void *const kGlobalMemRefAllocated =
    reinterpret_cast<void *>(uintptr_t(0xdeadbeef));

/// A tensor that owns the buffer compiled code returned in the descriptor
/// at `descriptor` (rank `rank`): when the last view of it dies,
/// `freeAllocated(allocated)` runs (normally `free`, as MLIR's generated
/// code allocates with malloc). Only for buffers the callee allocated; an
/// output that aliases an input must go through tensorViewOfMemRef. A
/// returned constant global (allocated == kGlobalMemRefAllocated) is copied
/// into a fresh tensor and `freeAllocated` is not called.
Tensor tensorFromOwnedMemRef(const void *descriptor, int rank, DType dtype,
                             std::function<void(void *)> freeAllocated);

/// A view, sharing `owner`, of the memref at `descriptor` whose aligned
/// pointer lies inside `owner` (an output aliasing an input). An error when
/// the memref reaches outside the storage.
StatusOr<Tensor> tensorViewOfMemRef(const void *descriptor, int rank,
                                    DType dtype, Ref<Storage> owner);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_MEMREF_H
