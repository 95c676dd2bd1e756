//===- MLIRGen.h - Build prim/aten MLIR from a parsed graph -----*- C++ -*-===//
//
// The second half of the importer: syntax tree to module.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_MLIRGEN_H
#define TSIR_LIB_IMPORTER_MLIRGEN_H

#include "tsir/Importer/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tsir {

class WeightsFile;

/// Builds the module for `file`; `weights` may be null. Reports errors
/// through the context's diagnostic engine and returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp> buildModule(mlir::MLIRContext *context,
                                              llvm::StringRef bufferName,
                                              const ts::GraphFile &file,
                                              const WeightsFile *weights);

} // namespace tsir

#endif // TSIR_LIB_IMPORTER_MLIRGEN_H
