//===- Broadcast.h - Promotion and broadcasting helpers ---------*- C++ -*-===//
//
// What every pattern that builds an elementwise `linalg.generic` needs:
// torch's type promotion (at::result_type) over the original operands, the
// type a dtype is computed in, element casts with torch's rules, and the
// generic itself with numpy-style broadcasting of its tensor operands
// against the result's shape. Private to passes/conversion.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_COMMON_BROADCAST_H
#define TSIR_PASSES_CONVERSION_COMMON_BROADCAST_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tsir::conversion {

//===----------------------------------------------------------------------===//
// Type promotion
//===----------------------------------------------------------------------===//

/// The prim dtype torch's `at::result_type` gives for `operands`, which are
/// the ORIGINAL (unconverted) operands of an aten op: `!prim.tensor`s (0-d
/// ones rank below tensors with dims) and scalars (i64 is a Long, f64 the
/// default Float, i1 a Bool: Python numbers only contribute their category).
/// None operands are skipped. Null when a dtype or a tensor's rank is
/// unknown. The result keeps its signedness (`si64`, `ui8`).
mlir::Type promoteOperandDtypes(mlir::ValueRange operands);

/// The dtype of one original operand as `promoteOperandDtypes` sees it (a
/// tensor's dtype, or a scalar's default dtype); null if unknown.
mlir::Type operandDtype(mlir::Value operand);

/// Whether a prim dtype is an unsigned integer (`ui8`).
bool isUnsignedIntegerDtype(mlir::Type dtype);

/// The builtin element type arithmetic on `elementType` runs in: f16 and
/// bf16 compute in f32 (as torch's CPU kernels do, rounding once at the
/// end), every other type in itself.
mlir::Type getComputeType(mlir::Type elementType);

/// Casts the scalar `value` to `type` with torch's rules (castScalar), and
/// also handles what castScalar leaves to its callers: a float to an
/// integer narrower than 64 bits or to an unsigned one goes through i64 and
/// wraps, as torch's CPU casts do in practice instead of producing poison.
mlir::Value castElement(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, mlir::Type type,
                        bool srcUnsigned = false);

//===----------------------------------------------------------------------===//
// Broadcasting linalg.generic
//===----------------------------------------------------------------------===//

/// Computes one result element from the operands' elements (already cast to
/// their compute types, in operand order). The value returned is cast to the
/// result's element type with `castElement` (as a signed value), unless it
/// already has that type.
using ElementwiseBodyBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// One operand of `buildElementwiseOp`.
struct ElementwiseOperand {
  /// A builtin ranked tensor, broadcast against the result's shape, or a
  /// scalar (int, float or i1), used for every element.
  mlir::Value value;
  /// The type the body receives the element as; null keeps the element's
  /// own type (a condition or mask stays i1).
  mlir::Type computeType;
  /// Whether the element is an unsigned integer (the builtin type forgot).
  bool isUnsigned = false;
};

/// A `linalg.generic` producing a tensor of `resultType` whose element i is
/// `body` applied to the elements of `operands` at i. Broadcasting is
/// numpy's (torch's): operands align on their trailing dims, a missing
/// leading dim or a dim of static size 1 is broadcast. A dynamic (`?`) dim
/// of an operand is taken to equal the result's dim (tsir specializes shapes
/// before lowering, so a `?` that is 1 at run time is not broadcast). The
/// result's dynamic dims are read (tensor.dim) from the first operand whose
/// aligned dim is not a static 1. Returns null (after emitting nothing) if
/// an operand's rank exceeds the result's or a dynamic result dim has no
/// operand to read it from.
mlir::Value buildElementwiseOp(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::RankedTensorType resultType,
                               llvm::ArrayRef<ElementwiseOperand> operands,
                               ElementwiseBodyBuilder body);

/// The common case: every operand computed in `computeType`; the i-th
/// operand is unsigned where `unsignedOperands[i]` says so (missing entries
/// are signed).
mlir::Value buildElementwiseOp(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::RankedTensorType resultType,
                               mlir::ValueRange operands,
                               mlir::Type computeType,
                               ElementwiseBodyBuilder body,
                               llvm::ArrayRef<bool> unsignedOperands = {});

/// `tensor` broadcast (numpy rules, as above) to `resultType`, its elements
/// cast to the result's element type (`expand` with a dtype change).
mlir::Value broadcastToType(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value tensor,
                            mlir::RankedTensorType resultType,
                            bool isUnsigned = false);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_COMMON_BROADCAST_H
