//===- tsir-c/Translation.h - TorchScript text in and out ---------*- C -*-===//
//
// The importer (graph text as PyTorch prints it, to a module holding
// `func.func @graph` in prim and aten) and the exporter (back to text in
// torch 1.13's format): tsir-translate's two directions.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_C_TRANSLATION_H
#define TSIR_C_TRANSLATION_H

#include "mlir-c/IR.h"
#include "tsir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports one graph file's text (the graph and its `with` subgraphs).
/// `bufferName` names the text in locations and diagnostics. Loads the
/// dialects it needs into `ctx`. On error returns a null module; the error
/// (`bufferName:line:col: ...`) goes to the context's diagnostic handlers
/// (mlirContextAttachDiagnosticHandler).
TSIR_CAPI_EXPORTED MlirModule tsirImportTorchScript(MlirContext ctx,
                                                    MlirStringRef text,
                                                    MlirStringRef bufferName);

/// As tsirImportTorchScript, with the `<Tensor>` constants' data read from
/// a safetensors file (by value name without `%`); empty means none.
TSIR_CAPI_EXPORTED MlirModule tsirImportTorchScriptWithWeights(
    MlirContext ctx, MlirStringRef text, MlirStringRef bufferName,
    MlirStringRef weightsPath);

/// Prints the one function of `module` as TorchScript graph text, in
/// pieces, through `callback`. Fails, with a diagnostic through the
/// context's handlers and nothing printed, when the module does not hold
/// exactly one function or it uses what TorchScript cannot express.
TSIR_CAPI_EXPORTED MlirLogicalResult tsirExportTorchScript(
    MlirModule module, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // TSIR_C_TRANSLATION_H
