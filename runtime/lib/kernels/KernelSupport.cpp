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
    registry.registerKernel(entry.name, entry.kernel, entry.schema)
        .ignoreError();
}

/// Pops the `n` arguments of a schema, first argument first.
StatusOr<std::vector<Value>> popArgs(Stack &stack, size_t n) {
  if (stack.size() < n)
    return Status::error("kernel expects " + std::to_string(n) +
                         " arguments, the stack holds " +
                         std::to_string(stack.size()));
  std::vector<Value> args(std::make_move_iterator(stack.end() - n),
                          std::make_move_iterator(stack.end()));
  stack.resize(stack.size() - n);
  return args;
}

StatusOr<DType> scalarTypeArgument(int64_t code) {
  if (std::optional<DType> dtype = dtypeFromScalarType(code))
    return *dtype;
  return Status::error("unsupported ScalarType " + std::to_string(code));
}

StatusOr<DType> optionalDType(const Value &value, DType fallback) {
  if (value.isNone())
    return fallback;
  if (!value.isInt())
    return Status::error(std::string("expected a ScalarType, got ") +
                         value.kindName());
  return scalarTypeArgument(value.toInt());
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

StatusOr<Tensor> requireTensor(const Value &value) {
  if (!value.isTensor() || !value.toTensor().defined())
    return Status::error(std::string("expected a Tensor, got ") +
                         value.kindName());
  return value.toTensor();
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
