//===- DataKernelSupport.cpp - Helpers of the data-dependent kernels ------===//
//
// See DataKernelSupport.h.
//
//===----------------------------------------------------------------------===//

#include "DataKernelSupport.h"

#include <algorithm>
#include <cstring>

namespace tsir::rt::data {

StatusOr<int64_t> wrapDim(int64_t dim, int64_t rank) {
  int64_t n = rank == 0 ? 1 : rank;
  if (dim < -n || dim >= n)
    return Status::error("Dimension out of range (expected to be in range of [" +
                         std::to_string(-n) + ", " + std::to_string(n - 1) +
                         "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + n : dim;
}

StatusOr<double> scalarArg(const Value &value, const char *what) {
  if (value.isDouble())
    return value.toDouble();
  if (value.isInt())
    return static_cast<double>(value.toInt());
  if (value.isBool())
    return value.toBool() ? 1.0 : 0.0;
  if (value.isTensor() && value.toTensor().defined() &&
      value.toTensor().numel() == 1)
    return toDoubles(value.toTensor())[0];
  return Status::error(std::string("expected a number for ") + what +
                       ", got " + value.kindName());
}

StatusOr<int64_t> intArg(const Value &value, const char *what) {
  if (value.isInt())
    return value.toInt();
  if (value.isBool())
    return static_cast<int64_t>(value.toBool());
  return Status::error(std::string("expected int ") + what + ", got " +
                       value.kindName());
}

StatusOr<bool> boolArg(const Value &value, const char *what) {
  if (value.isBool())
    return value.toBool();
  if (value.isInt())
    return value.toInt() != 0;
  return Status::error(std::string("expected bool ") + what + ", got " +
                       value.kindName());
}

StatusOr<std::string> stringArg(const Value &value, const char *what) {
  if (value.isString())
    return value.toStringRef();
  return Status::error(std::string("expected str ") + what + ", got " +
                       value.kindName());
}

StatusOr<Tensor> optionalTensor(const Value &value, const char *what) {
  if (value.isNone())
    return Tensor();
  if (value.isTensor())
    return value.toTensor();
  return Status::error(std::string("expected Tensor? ") + what + ", got " +
                       value.kindName());
}

StatusOr<int64_t> optionalInt(const Value &value, int64_t fallback,
                              const char *what) {
  if (value.isNone())
    return fallback;
  return intArg(value, what);
}

StatusOr<std::vector<int64_t>> intList(const Value &value, const char *what) {
  if (value.isInt())
    return std::vector<int64_t>{value.toInt()};
  if (!value.isList() && !value.isTuple())
    return Status::error(std::string("expected int[] ") + what + ", got " +
                         value.kindName());
  const std::vector<Value> &elements =
      value.isList() ? value.toList() : value.toTuple();
  std::vector<int64_t> result;
  for (const Value &element : elements) {
    if (!element.isInt())
      return Status::error(std::string("expected int[] ") + what);
    result.push_back(element.toInt());
  }
  return result;
}

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

Status pushAll(Stack &stack, std::vector<Value> results) {
  for (Value &value : results)
    stack.push_back(std::move(value));
  return Status::ok();
}

void moveElement(const Tensor &dst, int64_t to, const Tensor &src,
                 int64_t from) {
  size_t size = dst.elementSize();
  std::memcpy(static_cast<char *>(dst.data()) + to * size,
              static_cast<const char *>(src.data()) + from * size, size);
}

} // namespace tsir::rt::data
