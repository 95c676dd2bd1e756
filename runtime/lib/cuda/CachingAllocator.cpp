//===- CachingAllocator.cpp - Reusing device memory -----------------------===//
//
// See CachingAllocator.h. One mutex guards everything: allocation is rare
// next to kernel launches, and the backend is called with it held so that
// emptyCache and a concurrent allocation agree on what the driver holds.
//
//===----------------------------------------------------------------------===//

#include "CachingAllocator.h"

#include <limits>

namespace tsir::rt::cuda {

CachingAllocatorBackend::~CachingAllocatorBackend() = default;

CachingAllocator::CachingAllocator(Device device,
                                   CachingAllocatorBackend &backend)
    : dev(device), backend(backend) {}

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &[stream, blocks] : pendingByStream)
    freeBlocks.insert(blocks.begin(), blocks.end());
  pendingByStream.clear();
  emptyCacheLocked().ignoreError();
}

size_t CachingAllocator::roundSize(size_t nbytes) {
  size_t unit = nbytes < kSmallSizeLimit ? kMinBlockSize : kLargeRounding;
  if (nbytes > std::numeric_limits<size_t>::max() - unit)
    return 0;
  if (nbytes == 0)
    return kMinBlockSize;
  return (nbytes + unit - 1) / unit * unit;
}

std::pair<size_t, void *> CachingAllocator::takeBestFit(FreeSet &blocks,
                                                        size_t rounded) {
  auto it = blocks.lower_bound({rounded, nullptr});
  // Without splitting, a much larger block would waste most of itself.
  if (it == blocks.end() || it->first / 2 > rounded)
    return {0, nullptr};
  std::pair<size_t, void *> block = *it;
  counters.bytesCached -= block.first;
  blocks.erase(it);
  return block;
}

StatusOr<void *> CachingAllocator::allocate(size_t nbytes, StreamId stream) {
  size_t rounded = roundSize(nbytes);
  if (rounded == 0)
    return Status::error("cannot allocate " + std::to_string(nbytes) +
                         " bytes on " + dev.toString() + ": size overflows");
  std::lock_guard<std::mutex> lock(mutex);
  // The block handed out: (its size, which may exceed `rounded`, address).
  std::pair<size_t, void *> block = {0, nullptr};
  // A block freed on this very stream is reusable: whatever this allocation
  // is used for is queued after the work that used it.
  if (stream != kNoStream) {
    auto pending = pendingByStream.find(stream);
    if (pending != pendingByStream.end()) {
      auto fit = pending->second.lower_bound({rounded, nullptr});
      auto shared = freeBlocks.lower_bound({rounded, nullptr});
      bool pendingFitsBetter = fit != pending->second.end() &&
                               (shared == freeBlocks.end() || *fit < *shared);
      if (pendingFitsBetter)
        block = takeBestFit(pending->second, rounded);
      if (pending->second.empty())
        pendingByStream.erase(pending);
    }
  }
  if (!block.second)
    block = takeBestFit(freeBlocks, rounded);
  if (block.second) {
    ++counters.cacheHits;
  } else {
    StatusOr<void *> fresh = backend.allocate(rounded);
    if (!fresh.ok()) {
      // Out of memory, most likely: give the driver back what is cached
      // and try once more.
      emptyCacheLocked().ignoreError();
      fresh = backend.allocate(rounded);
    }
    if (!fresh.ok())
      return fresh.status().withContext("cannot allocate " +
                                        std::to_string(nbytes) + " bytes on " +
                                        dev.toString());
    block = {rounded, *fresh};
    ++counters.driverAllocations;
  }
  inUse.emplace(block.second, block.first);
  counters.bytesInUse += block.first;
  if (counters.bytesInUse > counters.peakBytesInUse)
    counters.peakBytesInUse = counters.bytesInUse;
  return block.second;
}

Status CachingAllocator::deallocate(void *ptr, StreamId stream) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = inUse.find(ptr);
  if (it == inUse.end())
    return Status::error("pointer " +
                         std::to_string(reinterpret_cast<uintptr_t>(ptr)) +
                         " was not allocated on " + dev.toString() +
                         " by the caching allocator (or was freed already)");
  size_t size = it->second;
  inUse.erase(it);
  counters.bytesInUse -= size;
  counters.bytesCached += size;
  if (stream == kNoStream)
    freeBlocks.insert({size, ptr});
  else
    pendingByStream[stream].insert({size, ptr});
  return Status::ok();
}

void *CachingAllocator::allocate(size_t nbytes) {
  StatusOr<void *> ptr = allocate(nbytes, kNoStream);
  return ptr.ok() ? *ptr : nullptr;
}

void CachingAllocator::deallocate(void *ptr) {
  if (ptr)
    deallocate(ptr, kNoStream).ignoreError();
}

bool CachingAllocator::owns(void *ptr) const {
  std::lock_guard<std::mutex> lock(mutex);
  return inUse.count(ptr) != 0;
}

void CachingAllocator::streamCompleted(StreamId stream) {
  std::lock_guard<std::mutex> lock(mutex);
  auto pending = pendingByStream.find(stream);
  if (pending == pendingByStream.end())
    return;
  freeBlocks.insert(pending->second.begin(), pending->second.end());
  pendingByStream.erase(pending);
}

bool CachingAllocator::hasBlocksPendingOn(StreamId stream) const {
  std::lock_guard<std::mutex> lock(mutex);
  return pendingByStream.count(stream) != 0;
}

Status CachingAllocator::emptyCacheLocked() {
  Status first;
  for (const auto &[size, ptr] : freeBlocks) {
    Status status = backend.free(ptr);
    if (!status.isOk() && first.isOk())
      first = status;
    counters.bytesCached -= size;
    ++counters.driverFrees;
  }
  freeBlocks.clear();
  return first;
}

Status CachingAllocator::emptyCache() {
  std::lock_guard<std::mutex> lock(mutex);
  return emptyCacheLocked();
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

} // namespace tsir::rt::cuda
