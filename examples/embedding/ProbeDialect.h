//===- ProbeDialect.h - The example's own dialect ---------------*- C++ -*-===//
//
// The probe dialect (ProbeOps.td) and the pass the example adds.
//
//===----------------------------------------------------------------------===//

#ifndef PROBE_DIALECT_H
#define PROBE_DIALECT_H

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ProbeDialect.h.inc"

#define GET_OP_CLASSES
#include "ProbeOps.h.inc"

namespace probe {
/// Registers `probe-tap-outputs`: every tensor a func.func returns goes
/// through a probe.tap labelled with its output index.
void registerTapOutputsPass();
} // namespace probe

#endif // PROBE_DIALECT_H
