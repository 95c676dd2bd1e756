//===- ListKernels.cpp - Builtin kernels on lists -------------------------===//
//
// aten::len.t, aten::append.t and aten::__getitem__.t on generic lists.
// Lists are shared, so append mutates the caller's list in place, as
// TorchScript's aliasing rules expect.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "tsir-runtime/Stack.h"

namespace tsir::rt {

namespace {
Status len(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  push(stack, static_cast<int64_t>(list.toList().size()));
  return Status::ok();
}

Status append(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value element, pop(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  list.toList().push_back(std::move(element));
  push(stack, std::move(list));
  return Status::ok();
}

Status getItem(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t index, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  const std::vector<Value> &elements = list.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  if (index < -size || index >= size)
    return Status::error("list index out of range (index " +
                         std::to_string(index) + ", length " +
                         std::to_string(size) + ")");
  push(stack, elements[index < 0 ? index + size : index]);
  return Status::ok();
}
} // namespace

void registerListKernels(KernelRegistry &registry) {
  registry.registerKernel("aten::len.t", len, "aten::len.t(t[] a) -> int")
      .ignoreError();
  registry
      .registerKernel("aten::append.t", append,
                      "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)")
      .ignoreError();
  registry
      .registerKernel("aten::__getitem__.t", getItem,
                      "aten::__getitem__.t(t[](a) list, int idx) -> t(*)")
      .ignoreError();
}

} // namespace tsir::rt
