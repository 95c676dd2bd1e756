//===- SupportSymbols.cpp - Functions compiled code calls -----------------===//
//
// See SupportSymbols.h. The signatures are MLIR's (CRunnerUtils.h), so the
// code MLIR generates calls these unchanged.
//
//===----------------------------------------------------------------------===//

#include "SupportSymbols.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
/// MLIR's unranked memref: the rank and a pointer to the ranked descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

struct RankedView {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

RankedView view(const UnrankedMemRef &memref) {
  auto *words = static_cast<int64_t *>(memref.descriptor);
  return {reinterpret_cast<char *>(words[1]), words[2], words + 3,
          words + 3 + memref.rank};
}
} // namespace

/// memref.copy between any two layouts of the same shape.
extern "C" void tsirMemrefCopy(int64_t elementSize, UnrankedMemRef *source,
                               UnrankedMemRef *target) {
  int64_t rank = source->rank;
  RankedView src = view(*source), dst = view(*target);
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= src.sizes[d];
  if (count == 0)
    return;
  std::vector<int64_t> index(rank, 0);
  int64_t srcOffset = src.offset, dstOffset = dst.offset;
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(dst.aligned + dstOffset * elementSize,
                src.aligned + srcOffset * elementSize, elementSize);
    // Advance the index like an odometer, keeping both offsets in step.
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < src.sizes[d]) {
        srcOffset += src.strides[d];
        dstOffset += dst.strides[d];
        break;
      }
      srcOffset -= src.strides[d] * (src.sizes[d] - 1);
      dstOffset -= dst.strides[d] * (dst.sizes[d] - 1);
      index[d] = 0;
    }
  }
}

std::vector<std::pair<llvm::StringRef, void *>> tsir::supportSymbols() {
  return {{"memrefCopy", reinterpret_cast<void *>(&tsirMemrefCopy)}};
}
