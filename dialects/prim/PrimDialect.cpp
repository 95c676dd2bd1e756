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

Operation *PrimDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return ConstantOp::create(builder, loc, type, value);
}
