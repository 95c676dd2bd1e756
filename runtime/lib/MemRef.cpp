//===- MemRef.cpp - The bridge to MLIR-compiled code ----------------------===//
//
// Building memref descriptors from tensors and tensors from descriptors.
// Descriptor words are read and written with memcpy: the struct's pointer
// and int64 fields are all 8 bytes on the 64-bit hosts tsir targets.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/MemRef.h"

#include <cstring>

static_assert(sizeof(void *) == 8, "memref descriptors assume 64-bit hosts");

namespace tsir::rt {

namespace {
void *pointerAt(const void *descriptor, int word) {
  void *ptr;
  std::memcpy(&ptr, static_cast<const char *>(descriptor) + 8 * word, 8);
  return ptr;
}

int64_t wordAt(const void *descriptor, int word) {
  int64_t value;
  std::memcpy(&value, static_cast<const char *>(descriptor) + 8 * word, 8);
  return value;
}

struct Geometry {
  std::vector<int64_t> sizes, strides;
  int64_t offset;
};

Geometry readGeometry(const void *descriptor, int rank) {
  Geometry geometry;
  geometry.offset = wordAt(descriptor, 2);
  for (int d = 0; d < rank; ++d) {
    geometry.sizes.push_back(wordAt(descriptor, 3 + d));
    geometry.strides.push_back(wordAt(descriptor, 3 + rank + d));
  }
  return geometry;
}

/// Elements from `aligned` to one past the last reachable one.
int64_t extentInElements(const Geometry &geometry) {
  int64_t last = geometry.offset;
  for (size_t d = 0; d < geometry.sizes.size(); ++d) {
    if (geometry.sizes[d] == 0)
      return geometry.offset;
    if (geometry.strides[d] > 0)
      last += (geometry.sizes[d] - 1) * geometry.strides[d];
  }
  return last + 1;
}
} // namespace

MemRefDescriptor::MemRefDescriptor(int rank)
    : descriptorRank(rank), words(3 + 2 * static_cast<size_t>(rank), 0) {}

MemRefDescriptor MemRefDescriptor::fromTensor(const Tensor &tensor) {
  MemRefDescriptor descriptor(static_cast<int>(tensor.dim()));
  if (tensor.defined()) {
    void *base = tensor.storage()->base();
    void *data = tensor.storage()->data();
    std::memcpy(&descriptor.words[0], &base, 8);
    std::memcpy(&descriptor.words[1], &data, 8);
    descriptor.words[2] = tensor.storageOffset();
  }
  for (int d = 0; d < descriptor.descriptorRank; ++d) {
    descriptor.words[3 + d] = tensor.sizes()[d];
    descriptor.words[3 + descriptor.descriptorRank + d] = tensor.strides()[d];
  }
  return descriptor;
}

void *MemRefDescriptor::allocated() const { return pointerAt(get(), 0); }
void *MemRefDescriptor::aligned() const { return pointerAt(get(), 1); }

Tensor tensorFromOwnedMemRef(const void *descriptor, int rank, DType dtype,
                             std::function<void(void *)> freeAllocated) {
  void *allocated = pointerAt(descriptor, 0);
  void *aligned = pointerAt(descriptor, 1);
  Geometry geometry = readGeometry(descriptor, rank);
  if (allocated == kGlobalMemRefAllocated) {
    // A constant global of the compiled module, which owns it and may be
    // unloaded: copy it out instead of adopting it.
    Ref<Storage> borrowed = Storage::adopt(
        aligned, aligned,
        static_cast<size_t>(extentInElements(geometry)) * dtypeSize(dtype),
        Device::cpu(), nullptr);
    return Tensor(std::move(borrowed), std::move(geometry.sizes),
                  std::move(geometry.strides), geometry.offset, dtype)
        .clone();
  }
  size_t nbytes =
      static_cast<size_t>(extentInElements(geometry)) * dtypeSize(dtype);
  Ref<Storage> storage = Storage::adopt(
      allocated, aligned, nbytes, Device::cpu(), std::move(freeAllocated));
  return Tensor(std::move(storage), std::move(geometry.sizes),
                std::move(geometry.strides), geometry.offset, dtype);
}

StatusOr<Tensor> tensorViewOfMemRef(const void *descriptor, int rank,
                                    DType dtype, Ref<Storage> owner) {
  if (!owner)
    return Status::error("tensorViewOfMemRef: no owning storage");
  auto aligned = reinterpret_cast<uintptr_t>(pointerAt(descriptor, 1));
  auto data = reinterpret_cast<uintptr_t>(owner->data());
  int64_t elementSize = static_cast<int64_t>(dtypeSize(dtype));
  int64_t byteShift = static_cast<int64_t>(aligned - data);
  if (aligned < data || byteShift % elementSize != 0)
    return Status::error("tensorViewOfMemRef: the memref's aligned pointer "
                         "is not an element of the storage");
  Geometry geometry = readGeometry(descriptor, rank);
  Tensor base(owner, {}, {}, 0, dtype);
  // asStrided checks that every element lies inside the storage.
  return base.asStrided(std::move(geometry.sizes), std::move(geometry.strides),
                        geometry.offset + byteShift / elementSize);
}

} // namespace tsir::rt
