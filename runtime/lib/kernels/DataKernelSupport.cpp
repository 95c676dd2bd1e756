//===- DataKernelSupport.cpp - Helpers of the data-dependent kernels ------===//
//
// See DataKernelSupport.h.
//
//===----------------------------------------------------------------------===//

#include "DataKernelSupport.h"

#include <algorithm>
#include <cstring>

namespace tsir::rt::data {

std::vector<double> toDoubles(const Tensor &tensor) {
  Tensor converted = tensor.to(DType::Float64);
  const double *data = converted.dataAs<double>();
  return std::vector<double>(data, data + converted.numel());
}

std::vector<int64_t> toInt64s(const Tensor &tensor) {
  Tensor converted = tensor.to(DType::Int64);
  const int64_t *data = converted.dataAs<int64_t>();
  return std::vector<int64_t>(data, data + converted.numel());
}

StatusOr<Tensor> fromDoubles(const std::vector<double> &values,
                             const std::vector<int64_t> &sizes, DType dtype) {
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           Tensor::tryEmpty(sizes, DType::Float64));
  if (static_cast<size_t>(result.numel()) != values.size())
    return Status::error("internal error: " + std::to_string(values.size()) +
                         " values for a tensor of " + sizesToString(sizes));
  if (!values.empty())
    std::memcpy(result.data(), values.data(), values.size() * sizeof(double));
  return result.to(dtype);
}

StatusOr<Tensor> fromInt64s(const std::vector<int64_t> &values,
                            const std::vector<int64_t> &sizes, DType dtype) {
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, Tensor::tryEmpty(sizes, DType::Int64));
  if (static_cast<size_t>(result.numel()) != values.size())
    return Status::error("internal error: " + std::to_string(values.size()) +
                         " values for a tensor of " + sizesToString(sizes));
  if (!values.empty())
    std::memcpy(result.data(), values.data(), values.size() * sizeof(int64_t));
  return result.to(dtype);
}

DimSplit splitAt(const std::vector<int64_t> &sizes, int64_t dim) {
  DimSplit split;
  if (sizes.empty())
    return split;
  for (int64_t d = 0; d < dim; ++d)
    split.outer *= sizes[d];
  split.size = sizes[dim];
  for (size_t d = dim + 1; d < sizes.size(); ++d)
    split.inner *= sizes[d];
  return split;
}

std::vector<int64_t> reducedSizes(const std::vector<int64_t> &sizes,
                                  int64_t dim, bool keepdim) {
  std::vector<int64_t> result = sizes;
  if (result.empty())
    return result;
  if (keepdim)
    result[dim] = 1;
  else
    result.erase(result.begin() + dim);
  return result;
}

namespace {
int category(DType t) {
  if (t == DType::Bool)
    return 0;
  return isFloating(t) ? 2 : 1;
}
int rank(DType t) {
  switch (t) {
  case DType::Bool:
    return 0;
  case DType::UInt8:
  case DType::Int8:
    return 1;
  case DType::Int16:
    return 2;
  case DType::Int32:
    return 3;
  case DType::Int64:
    return 4;
  case DType::Float16:
  case DType::BFloat16:
    return 5;
  case DType::Float32:
    return 6;
  case DType::Float64:
    return 7;
  }
  return 0;
}
} // namespace

DType promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  if (category(a) != category(b))
    return category(a) > category(b) ? a : b;
  if ((a == DType::UInt8 && b == DType::Int8) ||
      (a == DType::Int8 && b == DType::UInt8))
    return DType::Int16;
  if ((a == DType::Float16 && b == DType::BFloat16) ||
      (a == DType::BFloat16 && b == DType::Float16))
    return DType::Float32;
  return rank(a) >= rank(b) ? a : b;
}

void moveElement(const Tensor &dst, int64_t to, const Tensor &src,
                 int64_t from) {
  size_t size = dst.elementSize();
  std::memcpy(static_cast<char *>(dst.data()) + to * size,
              static_cast<const char *>(src.data()) + from * size, size);
}

} // namespace tsir::rt::data
