//===- PrimDialect.cpp - Registration of the prim dialect -----------------===//
//
// Registers the prim types, attributes and ops (the types and attributes
// register themselves in PrimTypes.cpp and PrimAttrs.cpp), and materializes
// folded constants as prim.Constant.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tsir::prim;

#include "tsir/Dialect/Prim/PrimDialect.cpp.inc"

void PrimDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tsir/Dialect/Prim/PrimOps.cpp.inc"
      >();
}

/// Every element of `array` satisfies `isElement`.
template <typename ElementAttr>
static bool allOf(ArrayAttr array, function_ref<bool(ElementAttr)> isElement) {
  return llvm::all_of(array, [&](Attribute element) {
    auto typed = dyn_cast<ElementAttr>(element);
    return typed && isElement(typed);
  });
}

/// The forward function `op` and its backward fit as `gradient` says
/// (GradientAttr's description).
static LogicalResult verifyGradient(Operation *op, GradientAttr gradient) {
  auto forward = dyn_cast<FunctionOpInterface>(op);
  if (!forward)
    return op->emitOpError("carries prim.gradient but is not a function");
  auto fail = [&](const Twine &what) {
    return forward.emitOpError() << "prim.gradient: " << what;
  };
  if (gradient.getOutputs() < 0 || gradient.getCaptured() < 0 ||
      gradient.getGradOutputs() < 0)
    return fail("counts must not be negative");
  int64_t outputs = gradient.getOutputs(), captured = gradient.getCaptured();
  if (int64_t(forward.getNumResults()) != outputs + captured)
    return fail("the forward returns " + Twine(forward.getNumResults()) +
                " values, not " + Twine(outputs) + " outputs and " +
                Twine(captured) + " captured values");
  auto backward = dyn_cast_or_null<FunctionOpInterface>(
      SymbolTable::lookupNearestSymbolFrom(forward, gradient.getBackward()));
  if (!backward)
    return fail("no backward function " + gradient.getBackward().getValue());
  ArrayRef<Type> inputs = backward.getArgumentTypes();
  if (int64_t(inputs.size()) != captured + gradient.getGradOutputs())
    return fail("the backward takes " + Twine(inputs.size()) +
                " arguments, not " + Twine(captured) + " captured values and " +
                Twine(gradient.getGradOutputs()) + " output gradients");
  for (int64_t i = 0; i < captured; ++i)
    if (inputs[i] != forward.getResultTypes()[outputs + i])
      return fail("captured value " + Twine(i) +
                  " has another type in the backward");
  if (backward.getNumResults() != gradient.getWrt().size())
    return fail("the backward returns " + Twine(backward.getNumResults()) +
                " gradients for " + Twine(gradient.getWrt().size()) +
                " wrt names");
  if (!allOf<StringAttr>(gradient.getWrt(),
                         [](StringAttr name) { return !name.empty(); }))
    return fail("wrt must be an array of names");
  return success();
}

LogicalResult PrimDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  auto array = dyn_cast<ArrayAttr>(attribute.getValue());
  auto fail = [&](StringRef what) {
    return op->emitOpError() << "attribute '" << name << "' must be " << what;
  };
  auto isIndex = [](IntegerAttr index) {
    return index.getType().isInteger(64) && index.getInt() >= 0;
  };
  auto isType = [](TypeAttr type) { return bool(type.getValue()); };
  auto isName = [](StringAttr text) { return !text.getValue().empty(); };
  if (name == WeightNamesAttrHelper::getNameStr()) {
    if (!array || !allOf<StringAttr>(array, isName))
      return fail("an array of weight names");
  } else if (name == ArgumentTypesAttrHelper::getNameStr() ||
             name == ResultTypesAttrHelper::getNameStr()) {
    if (!array || !allOf<TypeAttr>(array, isType))
      return fail("an array of types");
  } else if (name == WrittenInputsAttrHelper::getNameStr() ||
             name == ArgumentPositionsAttrHelper::getNameStr()) {
    if (!array || !allOf<IntegerAttr>(array, isIndex))
      return fail("an array of argument positions (i64, >= 0)");
  } else if (name == kGradientAttrName) {
    auto gradient = dyn_cast<GradientAttr>(attribute.getValue());
    if (!gradient)
      return fail("a #prim.gradient");
    return verifyGradient(op, gradient);
  } else {
    return op->emitOpError() << "unknown prim attribute '" << name << "'";
  }
  return success();
}

Operation *PrimDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return ConstantOp::create(builder, loc, type, value);
}
