//===- ViewKernels.cpp - Views of a tensor and its metadata ---------------===//
//
// The views (select, slice, narrow, view, permute, transpose, t, expand,
// unsqueeze, squeeze, alias, detach) as Tensor's own views, which share
// the tensor's storage, and the metadata queries (size, dim, numel, dtype,
// device). tsir's interpreter calls them where a view must share its
// base's storage across compiled segments (a compiled segment returns
// copies), and where interpreted code reads a tensor's sizes.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "KernelSupport.h"
#include "tsir-runtime/KernelArguments.h"

#include <limits>

namespace tsir::rt {
namespace {

StatusOr<Tensor> select(Tensor self, int64_t dim, int64_t index) {
  return self.select(dim, index);
}

StatusOr<Tensor> slice(Tensor self, int64_t dim, std::optional<int64_t> start,
                       std::optional<int64_t> end, int64_t step) {
  return self.slice(dim, start.value_or(0),
                    end.value_or(std::numeric_limits<int64_t>::max()), step);
}

StatusOr<Tensor> narrow(Tensor self, int64_t dim, int64_t start,
                        int64_t length) {
  if (dim >= -self.dim() && dim < self.dim() && start < 0)
    start += self.size(dim);
  return self.slice(dim, start, start + length, 1);
}

StatusOr<Tensor> view(Tensor self, std::vector<int64_t> sizes) {
  return self.view(std::move(sizes));
}

StatusOr<Tensor> permute(Tensor self, std::vector<int64_t> dims) {
  return self.permute(dims);
}

StatusOr<Tensor> expand(Tensor self, std::vector<int64_t> sizes,
                        bool /*implicit*/) {
  return self.expand(sizes);
}

StatusOr<Tensor> transpose(Tensor self, int64_t dim0, int64_t dim1) {
  return self.transpose(dim0, dim1);
}

/// `t()`: a tensor of fewer than two dims is itself.
StatusOr<Tensor> transposeMatrix(Tensor self) {
  if (self.dim() < 2)
    return self;
  return self.transpose(0, 1);
}

StatusOr<Tensor> unsqueeze(Tensor self, int64_t dim) {
  return self.unsqueeze(dim);
}

StatusOr<Tensor> squeeze(Tensor self) { return self.squeeze(); }

StatusOr<Tensor> squeezeDim(Tensor self, int64_t dim) {
  return self.squeeze(dim);
}

/// alias and detach: the tensor itself (tsir keeps no autograd state).
StatusOr<Tensor> alias(Tensor self) { return self; }

StatusOr<Value> sizes(Tensor self) {
  std::vector<Value> sizes;
  for (int64_t size : self.sizes())
    sizes.emplace_back(size);
  return Value::list(std::move(sizes));
}

StatusOr<int64_t> sizeOfDim(Tensor self, int64_t dim) {
  // A 0-dim tensor has no size to read (wrapDim would let dim 0 through).
  int64_t rank = self.dim();
  if (dim < -rank || dim >= rank)
    return Status::error("Dimension out of range (expected to be in range "
                         "of [" +
                         std::to_string(-rank) + ", " +
                         std::to_string(rank - 1) + "], but got " +
                         std::to_string(dim) + ")");
  return self.size(dim);
}

StatusOr<int64_t> dims(Tensor self) { return self.dim(); }

StatusOr<int64_t> numel(Tensor self) { return self.numel(); }

StatusOr<int64_t> dtype(Tensor self) { return dtypeScalarType(self.dtype()); }

StatusOr<Device> device(Tensor self) { return self.device(); }

} // namespace

void registerViewKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)",
           bindKernel(select)},
          {"aten::slice.Tensor(Tensor(a) self, int dim=0, int? start=None, "
           "int? end=None, int step=1) -> Tensor(a)",
           bindKernel(slice)},
          {"aten::narrow(Tensor(a) self, int dim, int start, int length) -> "
           "Tensor(a)",
           bindKernel(narrow)},
          {"aten::view(Tensor(a) self, int[] size) -> Tensor(a)",
           bindKernel(view)},
          {"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)",
           bindKernel(permute)},
          {"aten::expand(Tensor(a) self, int[] size, *, bool implicit=False) "
           "-> Tensor(a)",
           bindKernel(expand)},
          {"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> "
           "Tensor(a)",
           bindKernel(transpose)},
          {"aten::t(Tensor(a) self) -> Tensor(a)", bindKernel(transposeMatrix)},
          {"aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)",
           bindKernel(unsqueeze)},
          {"aten::squeeze(Tensor(a) self) -> Tensor(a)", bindKernel(squeeze)},
          {"aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)",
           bindKernel(squeezeDim)},
          {"aten::alias(Tensor(a) self) -> Tensor(a)", bindKernel(alias)},
          {"aten::detach(Tensor(a) self) -> Tensor(a)", bindKernel(alias)},
          {"aten::size(Tensor self) -> int[]", bindKernel(sizes)},
          {"aten::size.int(Tensor self, int dim) -> int",
           bindKernel(sizeOfDim)},
          {"aten::dim(Tensor self) -> int", bindKernel(dims)},
          {"aten::numel(Tensor self) -> int", bindKernel(numel)},
          {"prim::dtype(Tensor a) -> int", bindKernel(dtype)},
          {"prim::device(Tensor a) -> Device", bindKernel(device)},
      });
}

} // namespace tsir::rt
