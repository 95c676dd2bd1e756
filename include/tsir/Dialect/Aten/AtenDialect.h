//===- AtenDialect.h - The aten dialect: one op per overload ----*- C++ -*-===//
//
// The typed aten ops generated from dialects/aten/schemas.txt.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_ATEN_ATENDIALECT_H
#define TSIR_DIALECT_ATEN_ATENDIALECT_H

#include "tsir/Dialect/Aten/AtenTraits.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tsir/Dialect/Aten/AtenDialect.h.inc"

#define GET_OP_CLASSES
#include "tsir/Dialect/Aten/AtenOps.h.inc"

#endif // TSIR_DIALECT_ATEN_ATENDIALECT_H
