//===- NativeOpKinds.cpp - Which ops the interpreter evaluates ------------===//
//
// See NativeOpKinds.h.
//
//===----------------------------------------------------------------------===//

#include "NativeOpKinds.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;
using namespace tsir;

NativeKind tsir::nativeKind(Operation *op) {
  if (op->hasTrait<aten::OpTrait::ScalarOperator>())
    return NativeKind::Scalar;
  if (op->hasTrait<aten::OpTrait::TensorQuery>() ||
      isa<prim::DtypeOp, prim::DeviceOp>(op))
    return NativeKind::Query;
  if (op->hasTrait<aten::OpTrait::StorageView>())
    return NativeKind::View;
  if (isa<aten::CatOp, aten::StackOp>(op))
    return NativeKind::Concatenation;
  // `-t.item()` (aten::neg.Scalar, which has no typed op): a Scalar,
  // negated as the int or float it holds.
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    auto overload = op->getAttrOfType<StringAttr>("tsir.overload");
    if (generic.getKind() == "aten::neg" && overload &&
        overload.getValue() == "Scalar")
      return NativeKind::Scalar;
  }
  return NativeKind::None;
}

bool tsir::isNativeOp(Operation *op) {
  return nativeKind(op) != NativeKind::None && op->getNumResults() == 1;
}

bool tsir::isNativeView(Operation *op) {
  return nativeKind(op) == NativeKind::View && op->getNumResults() == 1;
}

bool tsir::isNativeConcatenation(Operation *op) {
  return nativeKind(op) == NativeKind::Concatenation &&
         op->getNumResults() == 1;
}

bool tsir::isNativeScalarOp(Operation *op) {
  auto isScalar = [](Type type) {
    return type.isInteger(64) || type.isInteger(1) || type.isF64();
  };
  return isNativeOp(op) && llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}
