//===- tsir-c/Passes.h - Registering tsir's passes ----------------*- C -*-===//
//
// Registers tsir's passes and pipelines with MLIR's global pass registry, so
// that mlirParsePassPipeline and mlirOpPassManagerAddPipeline know their
// names (prim-dce, prim-cse, tsir-optimize, convert-aten-to-linalg, ...;
// docs/passes.md lists them). Registering twice is harmless.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_C_PASSES_H
#define TSIR_C_PASSES_H

#include "tsir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Every tsir pass and pipeline: the two groups below.
TSIR_CAPI_EXPORTED void tsirRegisterAllPasses(void);

/// TorchScript's graph passes (prim-*, tsir-refine-types, ...) and the
/// tsir-optimize pipeline.
TSIR_CAPI_EXPORTED void tsirRegisterTransformsPasses(void);

/// The lowering passes (convert-*-to-*, tsir-decompose, ...) and the
/// tsir-lower-to-linalg and tsir-lower-to-llvm pipelines.
TSIR_CAPI_EXPORTED void tsirRegisterConversionPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TSIR_C_PASSES_H
