//===- MemrefCopyTest.cpp - Tests of tsirMemrefCopy -----------------------===//
//
// memref.copy as compiled code calls it: dense to dense, into a padded
// buffer (one contiguous run per row), from a transposed view (no run
// longer than an element), a size-1 dim with an odd stride, and rank 0;
// every element lands where its index says, and nothing else is written.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/MemrefCopy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

/// A ranked memref descriptor {allocated, aligned, offset, sizes, strides}
/// over `data`.
struct Descriptor {
  std::vector<int64_t> words;
  Descriptor(float *data, int64_t offset, std::vector<int64_t> sizes,
             std::vector<int64_t> strides) {
    words = {static_cast<int64_t>(reinterpret_cast<intptr_t>(data)),
             static_cast<int64_t>(reinterpret_cast<intptr_t>(data)), offset};
    words.insert(words.end(), sizes.begin(), sizes.end());
    words.insert(words.end(), strides.begin(), strides.end());
  }
  tsir_unranked_memref unranked(int64_t rank) {
    return {rank, words.data()};
  }
};

/// Copies `source` to `target` (both of `sizes`, with their strides and
/// offsets) and checks each element against an element-by-element copy.
void checkCopy(std::vector<int64_t> sizes, int64_t sourceOffset,
               std::vector<int64_t> sourceStrides, int64_t sourceLength,
               int64_t targetOffset, std::vector<int64_t> targetStrides,
               int64_t targetLength) {
  int64_t rank = sizes.size();
  std::vector<float> source(sourceLength);
  std::iota(source.begin(), source.end(), 1.0f);
  std::vector<float> target(targetLength, -1.0f), expected = target;
  int64_t count = 1;
  for (int64_t size : sizes)
    count *= size;
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t from = sourceOffset, to = targetOffset;
    for (int64_t d = 0; d < rank; ++d) {
      from += index[d] * sourceStrides[d];
      to += index[d] * targetStrides[d];
    }
    expected[to] = source[from];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  Descriptor from(source.data(), sourceOffset, sizes, sourceStrides);
  Descriptor to(target.data(), targetOffset, sizes, targetStrides);
  tsir_unranked_memref fromMemref = from.unranked(rank),
                       toMemref = to.unranked(rank);
  tsirMemrefCopy(sizeof(float), &fromMemref, &toMemref);
  EXPECT_EQ(target, expected);
}

TEST(MemrefCopyTest, DenseToDense) {
  checkCopy({2, 3, 4}, 0, {12, 4, 1}, 24, 0, {12, 4, 1}, 24);
}

TEST(MemrefCopyTest, IntoAPaddedBuffer) {
  // [2, 3, 4] into the interior of [2, 5, 6], one row at a time.
  checkCopy({2, 3, 4}, 0, {12, 4, 1}, 24, 7, {30, 6, 1}, 60);
}

TEST(MemrefCopyTest, FromATransposedView) {
  checkCopy({3, 4}, 0, {1, 3}, 12, 0, {4, 1}, 12);
}

TEST(MemrefCopyTest, SizeOneDimWithAnOddStride) {
  checkCopy({2, 1, 3}, 1, {3, 99, 1}, 8, 0, {3, 3, 1}, 6);
}

TEST(MemrefCopyTest, RankZero) { checkCopy({}, 2, {}, 4, 1, {}, 3); }

} // namespace
