//===- ElementwiseKernel.h - Broadcasting elementwise kernels ---*- C++ -*-===//
//
// Private to the runtime: the machinery for kernels that apply a scalar
// function to every element of one or two operands, so that a kernel file
// can register such an op as one line ({name, function, schema}).
//
// An operand is a tensor or a Python number (an int, float or bool Value,
// which torch wraps as a 0-d "wrapped number" tensor for a Scalar
// argument). Two operands broadcast against each other as in any torch
// binary op. The result dtype follows torch's result_type (dimensioned
// tensors outrank 0-d tensors, which outrank numbers, unless a lower rank
// is of a higher category: bool < integral < floating) and, for the ops
// that compute on reals, TensorIterator's promotion of integral results to
// the default float dtype (Float32). Values are computed in double (an
// optional float implementation serves Float32 results where torch's float
// arithmetic shows, e.g. when a recurrence overflows float) and rounded
// to the result dtype.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_ELEMENTWISEKERNEL_H
#define TSIR_RUNTIME_LIB_KERNELS_ELEMENTWISEKERNEL_H

#include "tsir-runtime/KernelRegistry.h"

#include <functional>

namespace tsir::rt {

/// torch's promoteTypes on the runtime's dtypes (Half with BFloat16 is
/// Float32; UInt8 with a signed type is the smallest signed type holding
/// both).
DType promoteTypes(DType a, DType b);

/// torch's result_type of one or two operands (tensors or numbers); an
/// error naming `op` for any other kind of Value or an undefined tensor.
StatusOr<DType> resultType(const Value &a, const char *op);
StatusOr<DType> resultType(const Value &a, const Value &b, const char *op);

/// `dtype`, or the default float dtype (Float32) when it is integral or
/// bool: the result dtype of ops that promote integer inputs to float.
DType floatingResult(DType dtype);

using UnaryFn = std::function<double(double)>;
using BinaryFn = std::function<double(double, double)>;

/// A tensor of `resultDType` with fn applied to each element of `x` (and,
/// for Float32 results, `fn32` instead when given).
StatusOr<Tensor> mapUnary(const Value &x, DType resultDType, const UnaryFn &fn,
                          const char *op,
                          const std::function<float(float)> &fn32 = nullptr);
/// A tensor of the broadcast shape of `a` and `b` and `resultDType` with
/// fn applied to each pair of elements.
StatusOr<Tensor>
mapBinary(const Value &a, const Value &b, DType resultDType, const BinaryFn &fn,
          const char *op,
          const std::function<float(float, float)> &fn32 = nullptr);

/// Kernels of the ops `op(Tensor self) -> Tensor` and `op(self, other) ->
/// Tensor` (either a tensor or a Scalar) that compute on reals: the
/// result is floating (integral inputs give Float32). `fn32`, when given,
/// computes Float32 results in float.
Kernel unaryFloatKernel(std::string op, double (*fn)(double),
                        float (*fn32)(float) = nullptr);
Kernel binaryFloatKernel(std::string op, double (*fn)(double, double),
                         float (*fn32)(float, float) = nullptr);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_LIB_KERNELS_ELEMENTWISEKERNEL_H
