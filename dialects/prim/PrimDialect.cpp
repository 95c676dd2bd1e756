//===- PrimDialect.cpp - Registration of the prim dialect -----------------===//
//
// Registers the prim types, attributes and ops (the types and attributes
// register themselves in PrimTypes.cpp and PrimAttrs.cpp), and materializes
// folded constants as prim.Constant.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tsir::prim;

#include "PrimDialect.cpp.inc"

void PrimDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "PrimOps.cpp.inc"
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
  } else {
    return op->emitOpError() << "unknown prim attribute '" << name << "'";
  }
  return success();
}

Operation *PrimDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return ConstantOp::create(builder, loc, type, value);
}
