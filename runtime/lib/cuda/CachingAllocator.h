//===- CachingAllocator.h - Reusing device memory ---------------*- C++ -*-===//
//
// Private to the runtime. cuMemAlloc and cuMemFree are slow (they may
// synchronize the device), so freed blocks are kept and handed out again,
// as PyTorch's CUDACachingAllocator does, simplified: sizes are rounded
// (512 bytes below 1 MiB, 2 MiB above, the driver's page), free blocks sit
// in size-ordered sets and the smallest one that fits is reused, blocks are
// never split, and a block is not reused for a request less than half its
// size. The driver is behind CachingAllocatorBackend, so tests drive the
// caching with a fake on machines with no GPU.
//
// Stream order: a block freed on a stream (mgpuMemFree) may still be read
// by work queued there, so it is reusable at once only by allocations on
// that same stream (which run after it), and by every other one after
// streamCompleted(stream). Host-side frees (deallocate) are of memory no
// queued work uses.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_CACHINGALLOCATOR_H
#define TSIR_RUNTIME_LIB_CUDA_CACHINGALLOCATOR_H

#include "tsir-runtime/Allocator.h"
#include "tsir-runtime/Cuda.h"
#include "tsir-runtime/Status.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

namespace tsir::rt::cuda {

/// Where the blocks come from: the driver, or a test's fake.
class CachingAllocatorBackend {
public:
  virtual ~CachingAllocatorBackend();
  /// `nbytes` (a rounded size, never 0) of fresh memory, or why not.
  virtual StatusOr<void *> allocate(size_t nbytes) = 0;
  virtual Status free(void *ptr) = 0;
};

class CachingAllocator final : public Allocator {
public:
  /// A stream (a CUstream's address); kNoStream for host-side use.
  using StreamId = uintptr_t;
  static constexpr StreamId kNoStream = 0;

  static constexpr size_t kMinBlockSize = 512;
  static constexpr size_t kSmallSizeLimit = size_t(1) << 20;
  static constexpr size_t kLargeRounding = size_t(2) << 20;

  CachingAllocator(Device device, CachingAllocatorBackend &backend);
  /// Returns the cached blocks to the backend. Blocks still in use are left
  /// to it (their tensors may outlive the allocator at exit).
  ~CachingAllocator() override;

  /// The size a request of `nbytes` is rounded to; 0 when it overflows.
  static size_t roundSize(size_t nbytes);

  // Allocator: host-side use (kNoStream). deallocate ignores pointers it
  // did not hand out (Storage passes only its own).
  void *allocate(size_t nbytes) override;
  void deallocate(void *ptr) override;
  Device device() const override { return dev; }

  /// A block of at least `nbytes` for use on `stream`. When the backend
  /// fails, the cache is emptied and the backend tried once more.
  StatusOr<void *> allocate(size_t nbytes, StreamId stream);
  /// Frees a block after the work queued on `stream` so far. An error for
  /// a pointer this allocator did not hand out (or freed already).
  Status deallocate(void *ptr, StreamId stream);
  bool owns(void *ptr) const;

  /// Work queued on `stream` is done: the blocks freed on it are reusable
  /// by every stream.
  void streamCompleted(StreamId stream);
  /// Whether blocks freed on `stream` still wait for streamCompleted.
  bool hasBlocksPendingOn(StreamId stream) const;

  /// Returns every block free for all streams to the backend; the first
  /// backend error, if any.
  Status emptyCache();
  AllocatorStats stats() const;

private:
  /// Free blocks as (size, pointer), so lower_bound finds the best fit.
  using FreeSet = std::set<std::pair<size_t, void *>>;

  /// The best fitting free block for `rounded` bytes in `blocks` as (size,
  /// address), removed from it; a null address when none fits.
  std::pair<size_t, void *> takeBestFit(FreeSet &blocks, size_t rounded);
  Status emptyCacheLocked();

  Device dev;
  CachingAllocatorBackend &backend;
  mutable std::mutex mutex;
  /// Blocks handed out, by address: their sizes (at least the rounded
  /// request; a reused block may be up to twice that).
  std::unordered_map<void *, size_t> inUse;
  FreeSet freeBlocks;
  std::map<StreamId, FreeSet> pendingByStream;
  AllocatorStats counters;
};

} // namespace tsir::rt::cuda

#endif // TSIR_RUNTIME_LIB_CUDA_CACHINGALLOCATOR_H
