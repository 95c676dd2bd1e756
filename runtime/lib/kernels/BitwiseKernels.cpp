//===- BitwiseKernels.cpp - Bitwise logic and shifts of integer tensors ---===//
//
// bitwise_and/or/xor (and their operators __and__/__or__/__xor__) with a
// Scalar or a tensor, and the shifts __lshift__/__rshift__ and
// bitwise_left_shift/bitwise_right_shift in every form: the ops the
// lowering has no typed form for. They compute in 64-bit integers, exact
// for every integer dtype, and wrap to the result dtype (torch's
// result_type of the operands) as torch's do. A shift by a count in
// [0, width) is ATen's (BinaryOpsKernel.cpp); torch 1.13 leaves other
// counts to C++'s undefined behaviour, and here they are what later
// torch defines: 0 for a left shift, the sign (all ones for a negative
// value, else 0) for a right one.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "ElementwiseKernel.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

namespace tsir::rt {

using namespace data;

namespace {

enum class Bitwise { And, Or, Xor, LeftShift, RightShift };

/// An operand as a tensor: a number as a 0-d tensor of its kind.
StatusOr<Tensor> operandTensor(const Value &value) {
  if (value.isTensor())
    return requireTensor(value);
  if (value.isBool())
    return Tensor::scalar(value.toBool() ? 1 : 0, DType::Bool);
  if (value.isInt())
    return fromInt64s({value.toInt()}, {}, DType::Int64);
  return Status::error("bitwise ops take integral or bool operands");
}

/// The bits of a dtype's values.
int64_t widthOf(DType dtype) {
  return static_cast<int64_t>(dtypeSize(dtype)) * 8;
}

int64_t apply(Bitwise op, int64_t a, int64_t b, int64_t width) {
  switch (op) {
  case Bitwise::And:
    return a & b;
  case Bitwise::Or:
    return a | b;
  case Bitwise::Xor:
    return a ^ b;
  case Bitwise::LeftShift:
    if (b < 0 || b >= width)
      return 0;
    return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  case Bitwise::RightShift:
    // Values are sign-extended to 64 bits, so shifting by up to 63 keeps
    // the sign as a shift by width - 1 of the narrow value would.
    if (b < 0 || b >= width)
      return a < 0 ? -1 : 0;
    return a >> b;
  }
  return 0;
}

/// `op(a, b)` of tensors or numbers, broadcast, in the result dtype.
Status bitwise(Stack &stack, Bitwise op, const char *name) {
  TSIR_RT_ASSIGN_OR_RETURN(auto args, (popTypedArgs<Value, Value>(stack)));
  const auto &[self, other] = args;
  TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(self, other, name));
  bool shift = op == Bitwise::LeftShift || op == Bitwise::RightShift;
  if (isFloating(dtype) || (shift && dtype == DType::Bool))
    return Status::error(std::string(name) + " is not implemented for '" +
                         dtypeTorchName(dtype) + "'");
  TSIR_RT_ASSIGN_OR_RETURN(Tensor a, operandTensor(self));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor b, operandTensor(other));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes,
                           broadcastSizes(a.sizes(), b.sizes()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor wideA, a.expand(sizes));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor wideB, b.expand(sizes));
  // Each operand in the result dtype first, as torch converts them.
  std::vector<int64_t> left = toInt64s(wideA.to(dtype));
  std::vector<int64_t> right = toInt64s(wideB.to(dtype));
  int64_t width = widthOf(dtype);
  std::vector<int64_t> out(left.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = apply(op, left[i], right[i], width);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromInt64s(out, sizes, dtype));
  push(stack, std::move(result));
  return Status::ok();
}

} // namespace

/// One row of the table: an overload and the operation it computes.
#define TSIR_BITWISE(NAME, OP, SCHEMA)                                         \
  {                                                                            \
    "aten::" NAME SCHEMA,                                                      \
        [](Stack &s) { return bitwise(s, Bitwise::OP, "aten::" NAME); }        \
  }

void registerBitwiseKernels(KernelRegistry &registry) {
  registerKernelTable(registry, {
#define TSIR_TENSOR_TENSOR "(Tensor self, Tensor other) -> Tensor"
#define TSIR_TENSOR_SCALAR "(Tensor self, Scalar other) -> Tensor"
#define TSIR_SCALAR_TENSOR "(Scalar self, Tensor other) -> Tensor"
      TSIR_BITWISE("__and__.Scalar", And, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("__or__.Scalar", Or, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("__xor__.Scalar", Xor, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_and.Tensor", And, TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("bitwise_and.Scalar", And, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_and.Scalar_Tensor", And, TSIR_SCALAR_TENSOR),
      TSIR_BITWISE("bitwise_or.Tensor", Or, TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("bitwise_or.Scalar", Or, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_or.Scalar_Tensor", Or, TSIR_SCALAR_TENSOR),
      TSIR_BITWISE("bitwise_xor.Tensor", Xor, TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("bitwise_xor.Scalar", Xor, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_xor.Scalar_Tensor", Xor, TSIR_SCALAR_TENSOR),
      TSIR_BITWISE("__lshift__.Tensor", LeftShift, TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("__lshift__.Scalar", LeftShift, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("__rshift__.Tensor", RightShift, TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("__rshift__.Scalar", RightShift, TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_left_shift.Tensor", LeftShift,
                   TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("bitwise_left_shift.Tensor_Scalar", LeftShift,
                   TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_left_shift.Scalar_Tensor", LeftShift,
                   TSIR_SCALAR_TENSOR),
      TSIR_BITWISE("bitwise_right_shift.Tensor", RightShift,
                   TSIR_TENSOR_TENSOR),
      TSIR_BITWISE("bitwise_right_shift.Tensor_Scalar", RightShift,
                   TSIR_TENSOR_SCALAR),
      TSIR_BITWISE("bitwise_right_shift.Scalar_Tensor", RightShift,
                   TSIR_SCALAR_TENSOR),
#undef TSIR_TENSOR_TENSOR
#undef TSIR_TENSOR_SCALAR
#undef TSIR_SCALAR_TENSOR
  });
}

#undef TSIR_BITWISE

} // namespace tsir::rt
