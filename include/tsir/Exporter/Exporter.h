//===- Exporter.h - prim/aten MLIR to TorchScript graph text ----*- C++ -*-===//
//
// The library entry point behind `tsir-translate --export-torchscript`: prints
// a graph the way torch 1.13's `print(graph)` does, with the value names,
// source comments and scopes the importer kept in the op locations, and the
// `with prim::FusionGroup_N = graph(...)` sections of subgraph ops.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_EXPORTER_EXPORTER_H
#define TSIR_EXPORTER_EXPORTER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace tsir {

/// Prints the one func.func in `module` as TorchScript graph text. Fails,
/// with a diagnostic on the offending op, if the module does not hold
/// exactly one function or the function uses something TorchScript cannot
/// express (an op of another dialect, a builtin tensor type, ...). Nothing
/// is written to `os` on failure.
mlir::LogicalResult exportTorchScript(mlir::ModuleOp module,
                                      llvm::raw_ostream &os);

/// Prints `func` as TorchScript graph text (see above).
mlir::LogicalResult exportTorchScript(mlir::func::FuncOp func,
                                      llvm::raw_ostream &os);

} // namespace tsir

#endif // TSIR_EXPORTER_EXPORTER_H
