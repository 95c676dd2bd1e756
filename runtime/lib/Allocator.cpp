//===- Allocator.cpp - The CPU allocator and the allocator table ----------===//
//
// The host allocator hands out 64-byte aligned blocks (the widest vector
// register, AVX-512, and a cache line) from posix_memalign.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Allocator.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace tsir::rt {

Allocator::~Allocator() = default;

namespace {
class CPUAllocator final : public Allocator {
public:
  void *allocate(size_t nbytes) override {
    void *ptr = nullptr;
    // posix_memalign(0) may return nullptr, which callers would take for
    // out-of-memory; one byte keeps every block distinct and freeable.
    if (posix_memalign(&ptr, kCPUAlignment, nbytes == 0 ? 1 : nbytes) != 0)
      return nullptr;
    return ptr;
  }
  void deallocate(void *ptr) override { std::free(ptr); }
  Device device() const override { return Device::cpu(); }
};

// Indexed by Device::Kind. Atomic so a CUDA layer can install its allocator
// while other threads allocate.
std::atomic<Allocator *> &slot(Device::Kind kind) {
  static std::atomic<Allocator *> slots[2] = {{&cpuAllocator()}, {nullptr}};
  return slots[kind == Device::CPU ? 0 : 1];
}
} // namespace

Allocator &cpuAllocator() {
  // Never destroyed, since tensors in other static objects may outlive any
  // destruction order we could pick; built in static storage so that
  // nothing is left on the heap at exit either.
  alignas(CPUAllocator) static unsigned char storage[sizeof(CPUAllocator)];
  static CPUAllocator *allocator = new (storage) CPUAllocator();
  return *allocator;
}

Allocator *allocatorFor(Device::Kind kind) { return slot(kind).load(); }

void setAllocator(Device::Kind kind, Allocator *allocator) {
  slot(kind).store(allocator);
}

} // namespace tsir::rt
