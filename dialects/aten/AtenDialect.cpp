//===- AtenDialect.cpp - Registration of the aten dialect -----------------===//
//
// Registers the generated aten ops.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tsir::aten;

#include "tsir/Dialect/Aten/AtenDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tsir/Dialect/Aten/AtenOps.cpp.inc"

void AtenDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tsir/Dialect/Aten/AtenOps.cpp.inc"
      >();
}
