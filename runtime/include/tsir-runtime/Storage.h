//===- Storage.h - Reference-counted tensor memory --------------*- C++ -*-===//
//
// Storage is one block of device memory shared by a tensor and all its views
// (c10's StorageImpl). It frees the block when the last reference goes,
// either through the Allocator that made it or through a deleter, which lets
// the runtime adopt buffers made elsewhere (malloc in compiled code, an mmap
// of a weights file).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_STORAGE_H
#define TSIR_RUNTIME_STORAGE_H

#include "tsir-runtime/Allocator.h"
#include "tsir-runtime/Ref.h"

#include <cstddef>
#include <functional>

namespace tsir::rt {

class Storage final : public RefCounted {
public:
  /// `nbytes` bytes from `allocator`; a null Ref when it is out of memory.
  static Ref<Storage> allocate(size_t nbytes, Allocator &allocator);

  /// Adopts memory owned elsewhere: `data` is the first usable byte,
  /// `base` the pointer `deleter` receives when the last reference goes
  /// (they differ when compiled code aligned a malloc'd block). An empty
  /// deleter makes a non-owning storage (the caller keeps the memory alive).
  static Ref<Storage> adopt(void *base, void *data, size_t nbytes,
                            Device device, std::function<void(void *)> deleter);

  ~Storage();

  /// The first usable byte.
  void *data() const { return dataPtr; }
  /// The pointer the memory was allocated as (the memref's "allocated").
  void *base() const { return basePtr; }
  size_t nbytes() const { return size; }
  Device device() const { return dev; }
  /// The allocator that made the memory; nullptr for adopted memory.
  Allocator *allocator() const { return alloc; }

private:
  Storage() = default;

  void *basePtr = nullptr;
  void *dataPtr = nullptr;
  size_t size = 0;
  Device dev;
  Allocator *alloc = nullptr;
  std::function<void(void *)> deleter;
};

} // namespace tsir::rt

#endif // TSIR_RUNTIME_STORAGE_H
