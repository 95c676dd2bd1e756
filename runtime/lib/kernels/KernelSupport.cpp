//===- KernelSupport.cpp - Argument helpers shared by builtin kernels -----===//
//
// See KernelSupport.h.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include <algorithm>

namespace tsir::rt {

void registerKernelTable(KernelRegistry &registry,
                         std::initializer_list<KernelEntry> entries) {
  for (const KernelEntry &entry : entries)
    registry.registerOperator(entry.schemaOrName, entry.kernel).ignoreError();
}

StatusOr<std::vector<int64_t>> sizeList(const Value &value) {
  if (!value.isList())
    return Status::error(std::string("expected int[] size, got ") +
                         value.kindName());
  std::vector<int64_t> sizes;
  for (const Value &element : value.toList()) {
    if (!element.isInt())
      return Status::error("expected int[] size");
    if (element.toInt() < 0)
      return Status::error("Trying to create tensor with negative dimension " +
                           std::to_string(element.toInt()));
    sizes.push_back(element.toInt());
  }
  return sizes;
}

StatusOr<std::vector<int64_t>> nonNegativeSizes(std::vector<int64_t> sizes) {
  for (int64_t size : sizes)
    if (size < 0)
      return Status::error("Trying to create tensor with negative dimension " +
                           std::to_string(size));
  return sizes;
}

StatusOr<int64_t> wrapDim(int64_t dim, int64_t rank) {
  int64_t n = rank == 0 ? 1 : rank;
  if (dim < -n || dim >= n)
    return Status::error(
        "Dimension out of range (expected to be in range of [" +
        std::to_string(-n) + ", " + std::to_string(n - 1) + "], but got " +
        std::to_string(dim) + ")");
  return dim < 0 ? dim + n : dim;
}

StatusOr<std::vector<int64_t>> broadcastSizes(const std::vector<int64_t> &a,
                                              const std::vector<int64_t> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return Status::error("The size of tensor a (" + std::to_string(x) +
                           ") must match the size of tensor b (" +
                           std::to_string(y) + ") at non-singleton dimension " +
                           std::to_string(i));
    result[i] = x == 1 ? y : x;
  }
  return result;
}

} // namespace tsir::rt
