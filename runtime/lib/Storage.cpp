//===- Storage.cpp - Reference-counted tensor memory ----------------------===//
//
// Creation and destruction of Storage blocks.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Storage.h"

namespace tsir::rt {

Ref<Storage> Storage::allocate(size_t nbytes, Allocator &allocator) {
  void *ptr = allocator.allocate(nbytes);
  if (!ptr)
    return nullptr;
  auto *storage = new Storage();
  storage->basePtr = ptr;
  storage->dataPtr = ptr;
  storage->size = nbytes;
  storage->dev = allocator.device();
  storage->alloc = &allocator;
  return Ref<Storage>(storage);
}

Ref<Storage> Storage::adopt(void *base, void *data, size_t nbytes,
                            Device device,
                            std::function<void(void *)> deleter) {
  auto *storage = new Storage();
  storage->basePtr = base;
  storage->dataPtr = data;
  storage->size = nbytes;
  storage->dev = device;
  storage->deleter = std::move(deleter);
  return Ref<Storage>(storage);
}

Storage::~Storage() {
  if (alloc)
    alloc->deallocate(basePtr);
  else if (deleter)
    deleter(basePtr);
}

} // namespace tsir::rt
