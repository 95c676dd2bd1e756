//===- CudaCachingAllocatorTest.cpp - The CUDA caching allocator ----------===//
//
// Drives the caching allocator's logic with a fake backend that hands out
// host memory, so rounding, reuse, best fit, stream order, statistics,
// emptyCache and thread safety are checked on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#include "cuda/CachingAllocator.h"

#include "tsir-runtime/Tensor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

using namespace tsir::rt;
using namespace tsir::rt::cuda;

namespace {

constexpr size_t MiB = size_t(1) << 20;

/// Host memory standing in for the device, with an optional capacity.
class FakeBackend final : public CachingAllocatorBackend {
public:
  explicit FakeBackend(size_t capacity = std::numeric_limits<size_t>::max())
      : capacity(capacity) {}
  ~FakeBackend() override {
    for (auto &[ptr, size] : live)
      std::free(ptr);
  }

  StatusOr<void *> allocate(size_t nbytes) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (nbytes > capacity - used)
      return Status::error("fake device out of memory");
    void *ptr = std::malloc(nbytes);
    live[ptr] = nbytes;
    used += nbytes;
    return ptr;
  }

  Status free(void *ptr) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(ptr);
    if (it == live.end())
      return Status::error("fake free of an unknown pointer");
    used -= it->second;
    live.erase(it);
    std::free(ptr);
    return Status::ok();
  }

  size_t liveBlocks() {
    std::lock_guard<std::mutex> lock(mutex);
    return live.size();
  }
  size_t liveBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return used;
  }

private:
  std::mutex mutex;
  size_t capacity;
  size_t used = 0;
  std::map<void *, size_t> live;
};

void *
mustAllocate(CachingAllocator &allocator, size_t nbytes,
             CachingAllocator::StreamId stream = CachingAllocator::kNoStream) {
  StatusOr<void *> ptr = allocator.allocate(nbytes, stream);
  EXPECT_TRUE(ptr.ok()) << ptr.status().message();
  return ptr.ok() ? *ptr : nullptr;
}

TEST(CudaCachingAllocator, RoundsSizes) {
  EXPECT_EQ(CachingAllocator::roundSize(0), 512u);
  EXPECT_EQ(CachingAllocator::roundSize(1), 512u);
  EXPECT_EQ(CachingAllocator::roundSize(512), 512u);
  EXPECT_EQ(CachingAllocator::roundSize(513), 1024u);
  EXPECT_EQ(CachingAllocator::roundSize(MiB - 1), MiB);
  EXPECT_EQ(CachingAllocator::roundSize(MiB), 2 * MiB);
  EXPECT_EQ(CachingAllocator::roundSize(3 * MiB), 4 * MiB);
  EXPECT_EQ(CachingAllocator::roundSize(4 * MiB), 4 * MiB);
  EXPECT_EQ(CachingAllocator::roundSize(std::numeric_limits<size_t>::max()),
            0u);

  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  StatusOr<void *> huge = allocator.allocate(std::numeric_limits<size_t>::max(),
                                             CachingAllocator::kNoStream);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("overflows"), std::string::npos);
  EXPECT_EQ(backend.liveBlocks(), 0u);
}

TEST(CudaCachingAllocator, ReusesAFreedBlock) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  void *first = mustAllocate(allocator, 1000);
  ASSERT_TRUE(allocator.deallocate(first, CachingAllocator::kNoStream).isOk());
  // 700 and 1000 both round to 1024 bytes.
  void *second = mustAllocate(allocator, 700);
  EXPECT_EQ(second, first);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.driverAllocations, 1u);
  EXPECT_EQ(stats.cacheHits, 1u);
  EXPECT_EQ(backend.liveBlocks(), 1u);
}

TEST(CudaCachingAllocator, ZeroByteBlocksAreDistinct) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  void *a = allocator.allocate(0);
  void *b = allocator.allocate(0);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  allocator.deallocate(a);
  allocator.deallocate(b);
  EXPECT_EQ(allocator.stats().bytesInUse, 0u);
}

TEST(CudaCachingAllocator, PicksTheBestFit) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  void *b4096 = mustAllocate(allocator, 4096);
  void *b2048 = mustAllocate(allocator, 2048);
  void *b8192 = mustAllocate(allocator, 8192);
  for (void *ptr : {b4096, b2048, b8192})
    ASSERT_TRUE(allocator.deallocate(ptr, CachingAllocator::kNoStream).isOk());
  EXPECT_EQ(mustAllocate(allocator, 1500), b2048);
  EXPECT_EQ(mustAllocate(allocator, 3000), b4096);
  EXPECT_EQ(mustAllocate(allocator, 5000), b8192);
  EXPECT_EQ(allocator.stats().driverAllocations, 3u);
}

TEST(CudaCachingAllocator, DoesNotWasteAMuchLargerBlock) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  void *big = mustAllocate(allocator, 64 * 1024);
  ASSERT_TRUE(allocator.deallocate(big, CachingAllocator::kNoStream).isOk());
  void *small = mustAllocate(allocator, 512);
  EXPECT_NE(small, big);
  EXPECT_EQ(allocator.stats().driverAllocations, 2u);
  // Half the size or more may reuse it, and it keeps its whole size.
  EXPECT_EQ(mustAllocate(allocator, 32 * 1024), big);
  EXPECT_EQ(allocator.stats().bytesInUse, 512u + 64 * 1024);
  ASSERT_TRUE(allocator.deallocate(big, CachingAllocator::kNoStream).isOk());
  EXPECT_EQ(allocator.stats().bytesCached, 64u * 1024);
  EXPECT_EQ(mustAllocate(allocator, 64 * 1024), big);
}

TEST(CudaCachingAllocator, KeepsStatistics) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  void *a = mustAllocate(allocator, 100);     // 512
  void *b = mustAllocate(allocator, 3 * MiB); // 4 MiB
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.bytesInUse, 512 + 4 * MiB);
  EXPECT_EQ(stats.peakBytesInUse, 512 + 4 * MiB);
  EXPECT_EQ(stats.bytesCached, 0u);
  EXPECT_EQ(stats.driverAllocations, 2u);

  ASSERT_TRUE(allocator.deallocate(b, CachingAllocator::kNoStream).isOk());
  stats = allocator.stats();
  EXPECT_EQ(stats.bytesInUse, 512u);
  EXPECT_EQ(stats.peakBytesInUse, 512 + 4 * MiB);
  EXPECT_EQ(stats.bytesCached, 4 * MiB);
  EXPECT_EQ(stats.driverFrees, 0u);
  ASSERT_TRUE(allocator.deallocate(a, CachingAllocator::kNoStream).isOk());
  EXPECT_EQ(allocator.stats().bytesCached, 4 * MiB + 512);
}

TEST(CudaCachingAllocator, EmptyCacheReturnsMemory) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  void *kept = mustAllocate(allocator, 2048);
  void *freed = mustAllocate(allocator, 3 * MiB);
  ASSERT_TRUE(allocator.deallocate(freed, CachingAllocator::kNoStream).isOk());
  EXPECT_EQ(backend.liveBytes(), 2048 + 4 * MiB);
  ASSERT_TRUE(allocator.emptyCache().isOk());
  EXPECT_EQ(backend.liveBytes(), 2048u);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.bytesCached, 0u);
  EXPECT_EQ(stats.driverFrees, 1u);
  EXPECT_EQ(stats.bytesInUse, 2048u);
  ASSERT_TRUE(allocator.deallocate(kept, CachingAllocator::kNoStream).isOk());
}

TEST(CudaCachingAllocator, EmptiesTheCacheWhenTheBackendRunsOut) {
  FakeBackend backend(/*capacity=*/6 * MiB);
  CachingAllocator allocator(Device::cuda(0), backend);
  void *cached = mustAllocate(allocator, 2 * MiB);
  ASSERT_TRUE(allocator.deallocate(cached, CachingAllocator::kNoStream).isOk());
  // 5 MiB rounds to 6 MiB, which fits only once the 2 MiB block is freed.
  void *large = mustAllocate(allocator, 5 * MiB);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(allocator.stats().driverFrees, 1u);
  EXPECT_EQ(backend.liveBytes(), 6 * MiB);

  StatusOr<void *> tooMuch =
      allocator.allocate(MiB, CachingAllocator::kNoStream);
  ASSERT_FALSE(tooMuch.ok());
  EXPECT_EQ(tooMuch.status().message(),
            "cannot allocate 1048576 bytes on cuda:0: fake device out of "
            "memory");
  EXPECT_EQ(allocator.allocate(MiB), nullptr);
}

TEST(CudaCachingAllocator, RejectsForeignAndDoubleFrees) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(1), backend);
  int local = 0;
  Status foreign = allocator.deallocate(&local, CachingAllocator::kNoStream);
  ASSERT_FALSE(foreign.isOk());
  EXPECT_NE(foreign.message().find("was not allocated on cuda:1"),
            std::string::npos);
  void *ptr = mustAllocate(allocator, 64);
  EXPECT_TRUE(allocator.owns(ptr));
  ASSERT_TRUE(allocator.deallocate(ptr, CachingAllocator::kNoStream).isOk());
  EXPECT_FALSE(allocator.owns(ptr));
  EXPECT_FALSE(allocator.deallocate(ptr, CachingAllocator::kNoStream).isOk());
  EXPECT_EQ(allocator.stats().bytesCached, 512u);
}

TEST(CudaCachingAllocator, ReusesStreamFreedBlocksInStreamOrder) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  constexpr CachingAllocator::StreamId s1 = 0x1000, s2 = 0x2000;
  void *block = mustAllocate(allocator, 4096, s1);
  ASSERT_TRUE(allocator.deallocate(block, s1).isOk());
  EXPECT_TRUE(allocator.hasBlocksPendingOn(s1));
  // Work queued on s1 may still use it: other streams and the host get a
  // fresh block, s1 itself the cached one.
  void *other = mustAllocate(allocator, 4096, s2);
  void *host = mustAllocate(allocator, 4096);
  EXPECT_NE(other, block);
  EXPECT_NE(host, block);
  EXPECT_EQ(mustAllocate(allocator, 4096, s1), block);
  EXPECT_FALSE(allocator.hasBlocksPendingOn(s1));

  ASSERT_TRUE(allocator.deallocate(block, s1).isOk());
  allocator.streamCompleted(s1);
  EXPECT_FALSE(allocator.hasBlocksPendingOn(s1));
  EXPECT_EQ(mustAllocate(allocator, 4096, s2), block);
  // A block pending on a stream is not returned by emptyCache.
  ASSERT_TRUE(allocator.deallocate(other, s2).isOk());
  ASSERT_TRUE(allocator.emptyCache().isOk());
  EXPECT_EQ(allocator.stats().bytesCached, 4096u);
}

TEST(CudaCachingAllocator, BacksTensors) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  {
    StatusOr<Tensor> tensor =
        Tensor::tryEmpty({4, 8}, DType::Float32, allocator);
    ASSERT_TRUE(tensor.ok()) << tensor.status().message();
    EXPECT_EQ(tensor->device(), Device::cuda(0));
    EXPECT_EQ(allocator.stats().bytesInUse, 512u);
  }
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.bytesInUse, 0u);
  EXPECT_EQ(stats.bytesCached, 512u);
}

TEST(CudaCachingAllocator, IsThreadSafe) {
  FakeBackend backend;
  CachingAllocator allocator(Device::cuda(0), backend);
  constexpr int kThreads = 4;
  constexpr int kIterations = 3000;
  std::atomic<int> corrupted{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 random(t);
      std::vector<std::pair<void *, size_t>> held;
      for (int i = 0; i < kIterations; ++i) {
        if (held.size() < 8 && random() % 3 != 0) {
          size_t size = 1 + random() % 20000;
          CachingAllocator::StreamId stream =
              random() % 2 ? CachingAllocator::kNoStream : 0x100 * (t + 1);
          StatusOr<void *> ptr = allocator.allocate(size, stream);
          if (!ptr.ok()) {
            ++failed;
            continue;
          }
          // A block handed to two threads at once would be overwritten.
          std::memset(*ptr, t + 1, size);
          held.push_back({*ptr, size});
        } else if (!held.empty()) {
          auto [ptr, size] = held.back();
          held.pop_back();
          auto *bytes = static_cast<unsigned char *>(ptr);
          if (bytes[0] != t + 1 || bytes[size - 1] != t + 1)
            ++corrupted;
          CachingAllocator::StreamId stream =
              random() % 2 ? CachingAllocator::kNoStream : 0x100 * (t + 1);
          if (!allocator.deallocate(ptr, stream).isOk())
            ++failed;
          if (random() % 50 == 0)
            allocator.streamCompleted(0x100 * (t + 1));
          if (random() % 500 == 0 && !allocator.emptyCache().isOk())
            ++failed;
        }
      }
      for (auto [ptr, size] : held)
        if (!allocator.deallocate(ptr, CachingAllocator::kNoStream).isOk())
          ++failed;
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(corrupted.load(), 0);
  EXPECT_EQ(failed.load(), 0);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.bytesInUse, 0u);
  EXPECT_EQ(stats.bytesCached, backend.liveBytes());
  EXPECT_EQ(stats.driverAllocations - stats.driverFrees, backend.liveBlocks());
  EXPECT_GT(stats.cacheHits, 0u);
}

} // namespace
