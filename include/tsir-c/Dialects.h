//===- tsir-c/Dialects.h - Registering the prim and aten dialects -*- C -*-===//
//
// Dialect handles for prim (TorchScript's types and structural ops) and aten
// (one op per operator overload), in MLIR's C API style: insert them into a
// registry or load them into a context with the mlirDialectHandle*
// functions of mlir-c/IR.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_C_DIALECTS_H
#define TSIR_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "tsir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Prim, prim);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Aten, aten);

/// Inserts every dialect of tsir's graphs (prim, aten, and func, which holds
/// the graph) into `registry`.
TSIR_CAPI_EXPORTED void tsirRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // TSIR_C_DIALECTS_H
