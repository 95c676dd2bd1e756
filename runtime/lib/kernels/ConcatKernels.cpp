//===- ConcatKernels.cpp - cat and stack of a list of tensors -------------===//
//
// torch.cat and torch.stack of a list of tensors. tsir's interpreter calls
// them for lists built at run time (appended to in a loop): compiled, such
// a concatenation would need one argument per element and a compilation
// per length. The result has the parts' promoted dtype, as torch's.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "ElementwiseKernel.h"
#include "KernelSupport.h"
#include "tsir-runtime/KernelArguments.h"

namespace tsir::rt {
namespace {

/// The tensors of a `Tensor[]`.
StatusOr<std::vector<Tensor>> tensorList(const Value &value) {
  if (!value.isList())
    return Status::error(std::string("expected a list of tensors, got ") +
                         value.kindName());
  std::vector<Tensor> parts;
  for (const Value &element : value.toList()) {
    if (!element.isTensor())
      return Status::error("expected a list of tensors");
    parts.push_back(element.toTensor());
  }
  return parts;
}

/// `parts` concatenated along `dim`; `name` is the op as torch's messages
/// name it.
StatusOr<Tensor> concatenate(std::vector<Tensor> parts, int64_t dim,
                             const std::string &name) {
  DType dtype = parts.front().dtype();
  for (const Tensor &part : parts)
    dtype = promoteTypes(dtype, part.dtype());
  // torch skips legacy empty 1-d parts beside parts of other ranks.
  const Tensor *reference = &parts.front();
  for (const Tensor &part : parts)
    if (!(part.dim() == 1 && part.size(0) == 0)) {
      reference = &part;
      break;
    }
  int64_t rank = reference->dim();
  if (rank == 0)
    return Status::error("zero-dimensional tensor cannot be concatenated");
  TSIR_RT_ASSIGN_OR_RETURN(dim, wrapDim(dim, rank));
  std::vector<int64_t> sizes = reference->sizes();
  sizes[dim] = 0;
  std::vector<const Tensor *> used;
  for (const Tensor &part : parts) {
    if (part.dim() == 1 && part.size(0) == 0 && rank != 1)
      continue;
    for (int64_t d = 0; d < rank; ++d)
      if (part.dim() != rank || (d != dim && part.size(d) != sizes[d]))
        return Status::error(name +
                             "(): Sizes of tensors must match except in "
                             "dimension " +
                             std::to_string(dim) + ": " +
                             sizesToString(reference->sizes()) + " and " +
                             sizesToString(part.sizes()));
    sizes[dim] += part.size(dim);
    used.push_back(&part);
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, Tensor::tryEmpty(sizes, dtype));
  int64_t offset = 0;
  for (const Tensor *part : used) {
    int64_t size = part->size(dim);
    TSIR_RT_ASSIGN_OR_RETURN(Tensor slot,
                             result.slice(dim, offset, offset + size));
    TSIR_RT_RETURN_IF_ERROR(slot.copyFrom(*part));
    offset += size;
  }
  return result;
}

StatusOr<Tensor> cat(Value tensors, int64_t dim) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Tensor> parts, tensorList(tensors));
  if (parts.empty())
    return Status::error("torch.cat(): expected a non-empty list of Tensors");
  return concatenate(std::move(parts), dim, "torch.cat");
}

/// stack is cat of the parts, each with a new dim of size 1.
StatusOr<Tensor> stack(Value tensors, int64_t dim) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Tensor> parts, tensorList(tensors));
  if (parts.empty())
    return Status::error("stack expects a non-empty TensorList");
  std::vector<int64_t> first = parts.front().sizes();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].sizes() != first)
      return Status::error("stack expects each tensor to be equal size, but "
                           "got " +
                           sizesToString(first) + " at entry 0 and " +
                           sizesToString(parts[i].sizes()) + " at entry " +
                           std::to_string(i));
    TSIR_RT_ASSIGN_OR_RETURN(parts[i], parts[i].unsqueeze(dim));
  }
  return concatenate(std::move(parts), dim, "stack");
}

} // namespace

void registerConcatKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::cat(Tensor[] tensors, int dim=0) -> Tensor", bindKernel(cat)},
          {"aten::stack(Tensor[] tensors, int dim=0) -> Tensor",
           bindKernel(stack)},
      });
}

} // namespace tsir::rt
