//===- NativeOpKinds.cpp - Which ops the interpreter evaluates ------------===//
//
// See NativeOpKinds.h.
//
//===----------------------------------------------------------------------===//

#include "NativeOpKinds.h"

#include "tsir/Dialect/Aten/ScalarSemantics.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tsir;

NativeKind tsir::nativeKind(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (isa<prim::DtypeOp>(op))
    return NativeKind::Dtype;
  if (isa<prim::DeviceOp>(op))
    return NativeKind::Device;
  // `-t.item()` (aten::neg.Scalar, which has no typed op): a Scalar,
  // negated as the int or float it holds.
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    auto overload = op->getAttrOfType<StringAttr>("tsir.overload");
    if (generic.getKind() == "aten::neg" && overload &&
        overload.getValue() == "Scalar")
      return NativeKind::Neg;
  }
  if (!name.consume_front("aten."))
    return NativeKind::None;
  auto [base, overload] = name.split('.');
  if (name == "size")
    return NativeKind::Sizes;
  if (name == "size.int")
    return NativeKind::SizeOfDim;
  if (name == "dim")
    return NativeKind::Dim;
  if (name == "numel")
    return NativeKind::Numel;
  if (name == "__not__")
    return NativeKind::Not;
  if (name == "cat")
    return NativeKind::Cat;
  if (name == "stack")
    return NativeKind::Stack;
  NativeKind comparison = llvm::StringSwitch<NativeKind>(name)
                          .Case("eq.int_list", NativeKind::ListEq)
                          .Case("ne.int_list", NativeKind::ListNe)
                          .Case("__contains__.int_list", NativeKind::Contains)
                          .Case("eq.str", NativeKind::StrEq)
                          .Case("ne.str", NativeKind::StrNe)
                          .Case("eq.device", NativeKind::DeviceEq)
                          .Case("ne.device", NativeKind::DeviceNe)
                          .Case("__is__", NativeKind::Is)
                          .Case("__isnot__", NativeKind::IsNot)
                          .Default(NativeKind::None);
  if (comparison != NativeKind::None)
    return comparison;

  NativeKind view = llvm::StringSwitch<NativeKind>(name)
                    .Case("select.int", NativeKind::Select)
                    .Case("slice.Tensor", NativeKind::Slice)
                    .Case("view", NativeKind::View)
                    .Case("permute", NativeKind::Permute)
                    .Case("transpose.int", NativeKind::Transpose)
                    .Case("unsqueeze", NativeKind::Unsqueeze)
                    .Case("squeeze", NativeKind::Squeeze)
                    .Case("squeeze.dim", NativeKind::SqueezeDim)
                    .Case("expand", NativeKind::Expand)
                    .Case("t", NativeKind::TransposeMatrix)
                    .Case("narrow", NativeKind::Narrow)
                    .Case("alias", NativeKind::Alias)
                    .Case("detach", NativeKind::Alias)
                    .Default(NativeKind::None);
  if (view != NativeKind::None)
    return view;
  bool scalarOverload = llvm::is_contained(
      {StringRef("int"), StringRef("float"), StringRef("int_float"),
       StringRef("float_int"), StringRef("bool")},
      overload);
  if (!scalarOverload)
    return NativeKind::None;
  if (scalar::binaryOpNamed(name))
    return NativeKind::Arithmetic;
  if (scalar::compareOpNamed(name))
    return NativeKind::Comparison;
  return llvm::StringSwitch<NativeKind>(base)
      .Case("neg", NativeKind::Neg)
      .Case("Int", NativeKind::ToInt)
      .Case("Float", NativeKind::ToFloat)
      .Case("Bool", NativeKind::ToBool)
      .Default(NativeKind::None);
}

bool tsir::isNativeOp(Operation *op) {
  return nativeKind(op) != NativeKind::None && op->getNumResults() == 1;
}

bool tsir::isNativeView(Operation *op) {
  NativeKind kind = nativeKind(op);
  return kind >= NativeKind::Select && kind <= NativeKind::Alias &&
         op->getNumResults() == 1;
}

bool tsir::isNativeConcatenation(Operation *op) {
  NativeKind kind = nativeKind(op);
  return (kind == NativeKind::Cat || kind == NativeKind::Stack) &&
         op->getNumResults() == 1;
}

bool tsir::isNativeScalarOp(Operation *op) {
  auto isScalar = [](Type type) {
    return type.isInteger(64) || type.isInteger(1) || type.isF64();
  };
  return isNativeOp(op) && llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}
