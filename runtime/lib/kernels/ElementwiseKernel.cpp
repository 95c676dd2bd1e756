//===- ElementwiseKernel.cpp - Broadcasting elementwise kernels -----------===//
//
// See ElementwiseKernel.h. Operands are first converted to contiguous
// Float64 tensors (exact for every dtype except int64 beyond 2^53, which
// the real-valued ops this serves would round anyway), then walked in the
// output's row-major order with per-operand strides that are 0 along
// broadcast dimensions. The double results are converted once, at the
// end, to the result dtype.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <optional>

namespace tsir::rt {

namespace {
bool isReducedFloat(DType t) {
  return t == DType::Float16 || t == DType::BFloat16;
}

int floatRank(DType t) {
  switch (t) {
  case DType::Float16:
  case DType::BFloat16:
    return 0;
  case DType::Float32:
    return 1;
  default:
    return 2;
  }
}
} // namespace

DType promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  if (a == DType::Bool)
    return b;
  if (b == DType::Bool)
    return a;
  bool floatA = isFloating(a), floatB = isFloating(b);
  if (floatA && floatB) {
    // Neither half type holds the other; torch meets them at Float32.
    if (isReducedFloat(a) && isReducedFloat(b))
      return DType::Float32;
    return floatRank(a) >= floatRank(b) ? a : b;
  }
  if (floatA)
    return a;
  if (floatB)
    return b;
  // Both integral. UInt8 with a signed type needs a signed type wider than
  // 8 bits; otherwise the wider signed type holds both.
  if (a == DType::UInt8 || b == DType::UInt8) {
    DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return dtypeSize(a) >= dtypeSize(b) ? a : b;
}

namespace {
/// torch's ResultTypeState: the promoted dtype of each priority class.
struct ResultTypeState {
  std::optional<DType> dimensioned;
  std::optional<DType> zeroDim;
  std::optional<DType> wrapped;
};

void promoteInto(std::optional<DType> &slot, DType dtype) {
  slot = slot ? promoteTypes(*slot, dtype) : dtype;
}

Status update(ResultTypeState &state, const Value &value, const char *op) {
  switch (value.kind()) {
  case Value::Kind::Tensor: {
    const Tensor &tensor = value.toTensor();
    if (!tensor.defined())
      return Status::error(std::string(op) +
                           ": expected a defined Tensor, got an undefined one");
    promoteInto(tensor.dim() > 0 ? state.dimensioned : state.zeroDim,
                tensor.dtype());
    return Status::ok();
  }
  // A Python number is a wrapped 0-d tensor: int64, the default float
  // dtype for a float, bool.
  case Value::Kind::Int:
    promoteInto(state.wrapped, DType::Int64);
    return Status::ok();
  case Value::Kind::Double:
    promoteInto(state.wrapped, DType::Float32);
    return Status::ok();
  case Value::Kind::Bool:
    promoteInto(state.wrapped, DType::Bool);
    return Status::ok();
  default:
    return Status::error(std::string(op) + ": expected a Tensor or a number, got " +
                         value.kindName());
  }
}

/// torch's combine_categories: a lower-priority class only matters when it
/// is of a higher category (floating over integral over bool).
std::optional<DType> combine(std::optional<DType> higher,
                             std::optional<DType> lower) {
  if (higher && isFloating(*higher))
    return higher;
  if ((higher && *higher == DType::Bool) || (lower && isFloating(*lower))) {
    if (!higher)
      return lower;
    if (!lower)
      return higher;
    return promoteTypes(*higher, *lower);
  }
  return higher ? higher : lower;
}

StatusOr<DType> resultOf(const ResultTypeState &state) {
  std::optional<DType> result =
      combine(state.dimensioned, combine(state.zeroDim, state.wrapped));
  return *result;
}
} // namespace

StatusOr<DType> resultType(const Value &a, const char *op) {
  ResultTypeState state;
  TSIR_RT_RETURN_IF_ERROR(update(state, a, op));
  return resultOf(state);
}

StatusOr<DType> resultType(const Value &a, const Value &b, const char *op) {
  ResultTypeState state;
  TSIR_RT_RETURN_IF_ERROR(update(state, a, op));
  TSIR_RT_RETURN_IF_ERROR(update(state, b, op));
  return resultOf(state);
}

DType floatingResult(DType dtype) {
  return isFloating(dtype) ? dtype : DType::Float32;
}

namespace {
/// An operand as contiguous doubles.
struct DoubleOperand {
  Tensor values; // Float64, contiguous
  std::vector<int64_t> sizes;
};

DoubleOperand asDoubles(const Value &value) {
  switch (value.kind()) {
  case Value::Kind::Tensor: {
    const Tensor &tensor = value.toTensor();
    return {tensor.to(DType::Float64), tensor.sizes()};
  }
  case Value::Kind::Int:
    return {Tensor::scalar(static_cast<double>(value.toInt()), DType::Float64),
            {}};
  case Value::Kind::Bool:
    return {Tensor::scalar(value.toBool() ? 1.0 : 0.0, DType::Float64), {}};
  default:
    return {Tensor::scalar(value.toDouble(), DType::Float64), {}};
  }
}

/// The element strides of a contiguous tensor of `sizes` read as the
/// broadcast shape `out`: 0 along dimensions it is broadcast over.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &sizes,
                                      const std::vector<int64_t> &out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  size_t offset = out.size() - sizes.size();
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i + offset] = sizes[i] == 1 ? 0 : stride;
    stride *= sizes[i];
  }
  return strides;
}

/// Checks the value kinds before anything is computed.
Status checkOperand(const Value &value, const char *op) {
  ResultTypeState ignored;
  return update(ignored, value, op);
}
} // namespace

StatusOr<Tensor> mapUnary(const Value &x, DType resultDType, const UnaryFn &fn,
                          const char *op,
                          const std::function<float(float)> &fn32) {
  TSIR_RT_RETURN_IF_ERROR(checkOperand(x, op));
  DoubleOperand in = asDoubles(x);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out,
                           Tensor::tryEmpty(in.sizes, DType::Float64));
  const double *src = in.values.dataAs<double>();
  double *dst = out.dataAs<double>();
  int64_t n = out.numel();
  if (resultDType == DType::Float32 && fn32) {
    for (int64_t i = 0; i < n; ++i)
      dst[i] = fn32(static_cast<float>(src[i]));
  } else {
    for (int64_t i = 0; i < n; ++i)
      dst[i] = fn(src[i]);
  }
  return out.to(resultDType);
}

StatusOr<Tensor> mapBinary(const Value &a, const Value &b, DType resultDType,
                           const BinaryFn &fn, const char *op,
                           const std::function<float(float, float)> &fn32) {
  TSIR_RT_RETURN_IF_ERROR(checkOperand(a, op));
  TSIR_RT_RETURN_IF_ERROR(checkOperand(b, op));
  DoubleOperand lhs = asDoubles(a);
  DoubleOperand rhs = asDoubles(b);
  StatusOr<std::vector<int64_t>> shape = broadcastSizes(lhs.sizes, rhs.sizes);
  if (!shape.ok())
    return shape.status().withContext(op);
  std::vector<int64_t> sizes = *shape;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, Tensor::tryEmpty(sizes, DType::Float64));
  std::vector<int64_t> lhsStrides = broadcastStrides(lhs.sizes, sizes);
  std::vector<int64_t> rhsStrides = broadcastStrides(rhs.sizes, sizes);
  const double *x = lhs.values.dataAs<double>();
  const double *y = rhs.values.dataAs<double>();
  double *dst = out.dataAs<double>();
  bool useFloat = resultDType == DType::Float32 && fn32;
  int64_t n = out.numel();
  size_t rank = sizes.size();
  // An odometer over the output index, carrying both operands' offsets.
  std::vector<int64_t> index(rank, 0);
  int64_t offsetX = 0, offsetY = 0;
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = useFloat ? fn32(static_cast<float>(x[offsetX]),
                             static_cast<float>(y[offsetY]))
                      : fn(x[offsetX], y[offsetY]);
    for (size_t d = rank; d-- > 0;) {
      offsetX += lhsStrides[d];
      offsetY += rhsStrides[d];
      if (++index[d] < sizes[d])
        break;
      offsetX -= lhsStrides[d] * sizes[d];
      offsetY -= rhsStrides[d] * sizes[d];
      index[d] = 0;
    }
  }
  return out.to(resultDType);
}

Kernel unaryFloatKernel(std::string op, double (*fn)(double),
                        float (*fn32)(float)) {
  return [op = std::move(op), fn, fn32](Stack &stack) -> Status {
    TSIR_RT_ASSIGN_OR_RETURN(auto args, popTypedArgs<Value>(stack));
    const Value &self = std::get<0>(args);
    if (!self.isTensor())
      return Status::error(std::string(op) + ": expected a Tensor, got " +
                           self.kindName());
    TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(self, op.c_str()));
    std::function<float(float)> floatFn;
    if (fn32)
      floatFn = fn32;
    TSIR_RT_ASSIGN_OR_RETURN(
        Tensor result,
        mapUnary(self, floatingResult(dtype), fn, op.c_str(), floatFn));
    push(stack, std::move(result));
    return Status::ok();
  };
}

Kernel binaryFloatKernel(std::string op, double (*fn)(double, double),
                         float (*fn32)(float, float)) {
  return [op = std::move(op), fn, fn32](Stack &stack) -> Status {
    TSIR_RT_ASSIGN_OR_RETURN(auto args, (popTypedArgs<Value, Value>(stack)));
    const auto &[self, other] = args;
    if (!self.isTensor() && !other.isTensor())
      return Status::error(std::string(op) +
                           ": expected at least one Tensor operand, got " +
                           self.kindName() + " and " + other.kindName());
    TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(self, other, op.c_str()));
    std::function<float(float, float)> floatFn;
    if (fn32)
      floatFn = fn32;
    TSIR_RT_ASSIGN_OR_RETURN(
        Tensor result,
        mapBinary(self, other, floatingResult(dtype), fn, op.c_str(), floatFn));
    push(stack, std::move(result));
    return Status::ok();
  };
}

} // namespace tsir::rt
