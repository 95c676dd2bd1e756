//===- Allocator.h - Device memory allocators -------------------*- C++ -*-===//
//
// The Allocator interface, the process-wide CPU allocator (64-byte aligned,
// so compiled vector code can use aligned loads) and the table that maps a
// device kind to its allocator (the CUDA one is installed by the CUDA
// driver layer when a GPU is present).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_ALLOCATOR_H
#define TSIR_RUNTIME_ALLOCATOR_H

#include "tsir-runtime/Device.h"

#include <cstddef>

namespace tsir::rt {

/// Memory of one device. Implementations must be thread-safe.
class Allocator {
public:
  virtual ~Allocator();
  /// Returns memory for `nbytes` bytes or nullptr when out of memory. A
  /// zero-byte request returns a valid, unique pointer that must be freed.
  virtual void *allocate(size_t nbytes) = 0;
  /// Frees memory from allocate(); nullptr is ignored.
  virtual void deallocate(void *ptr) = 0;
  virtual Device device() const = 0;
};

/// The alignment of every cpuAllocator() block.
inline constexpr size_t kCPUAlignment = 64;

/// The host allocator (posix_memalign, 64-byte aligned). Never destroyed.
Allocator &cpuAllocator();

/// The allocator for `kind`, or nullptr when none is installed (CUDA on a
/// machine without a driver).
Allocator *allocatorFor(Device::Kind kind);

/// Installs the allocator used for `kind` (nullptr uninstalls); the caller
/// keeps it alive while tensors may use it. The CPU allocator can be
/// replaced too (tests count allocations this way).
void setAllocator(Device::Kind kind, Allocator *allocator);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_ALLOCATOR_H
