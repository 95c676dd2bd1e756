//===- KnownNumbers.cpp - convert-aten-to-arith: typing known Scalars -----===//
//
// TorchScript's Scalar (`number`) holds an int or a float known only at run
// time in the interpreter; in a specialized graph it is often known sooner
// (`x.item() * 2` on a float tensor). refineKnownNumbers (see Patterns.h)
// gives such values their builtin type before the conversion, so the
// scalar patterns see ints and floats.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace tsir;

/// The int/float/bool a `number` was cast from, or null.
static Value knownScalar(Value value) {
  if (!isa<prim::NumberType>(value.getType()))
    return {};
  auto cast = value.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || cast.getInputs().size() != 1 ||
      !conversion::isBuiltinScalarType(cast.getInputs().front().getType()))
    return {};
  return cast.getInputs().front();
}

/// Whether `op` is a Scalar overload whose result is the promotion of its
/// operands: an int for two ints (bools count as ints), else a float.
static bool isPromotingScalarOp(Operation *op) {
  return isa<aten::AddOp, aten::SubOp, aten::MulOp, aten::FloordivOp,
             aten::RemainderOp>(op);
}

void tsir::conversion::refineKnownNumbers(Operation *root) {
  root->walk([](Operation *op) {
    if (!isa<aten::AtenDialect>(op->getDialect()))
      return;
    // A `number` operand of an aten op is a Scalar parameter, which accepts
    // the int or float itself.
    for (OpOperand &operand : op->getOpOperands())
      if (Value scalar = knownScalar(operand.get()))
        operand.set(scalar);

    if (!isPromotingScalarOp(op) || op->getNumResults() != 1 ||
        !isa<prim::NumberType>(op->getResult(0).getType()) ||
        !llvm::all_of(op->getOperandTypes(), isBuiltinScalarType))
      return;
    bool isFloat = llvm::any_of(op->getOperandTypes(),
                                [](Type type) { return isa<FloatType>(type); });
    OpBuilder b(op->getContext());
    Type type = isFloat ? Type(b.getF64Type()) : Type(b.getI64Type());
    Value result = op->getResult(0);
    Type numberType = result.getType();
    result.setType(type);
    // Users outside aten (tuples, lists, control flow, the return) keep
    // seeing a `number`.
    Value asNumber;
    for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
      if (isa<aten::AtenDialect>(use.getOwner()->getDialect()))
        continue;
      if (!asNumber) {
        b.setInsertionPointAfter(op);
        asNumber = UnrealizedConversionCastOp::create(b, op->getLoc(),
                                                      numberType, result)
                       .getResult(0);
      }
      use.set(asNumber);
    }
  });
}
