//===- ProbeDialect.cpp - The example's own dialect -----------------------===//
//
// The generated definitions of the probe dialect and its op.
//
//===----------------------------------------------------------------------===//

#include "ProbeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include "ProbeDialect.cpp.inc"

void probe::ProbeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ProbeOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "ProbeOps.cpp.inc"
