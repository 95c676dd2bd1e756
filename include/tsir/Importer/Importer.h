//===- Importer.h - TorchScript graph text to prim/aten MLIR ----*- C++ -*-===//
//
// The library entry point behind `tsir-translate --import-torchscript`.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_IMPORTER_IMPORTER_H
#define TSIR_IMPORTER_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace tsir {

struct ImportOptions {
  /// A safetensors file holding the `<Tensor>` constants (and the small
  /// tensors printed inline), keyed by value name without `%`.
  std::string weightsPath;
  /// Without a weights file: the names of the weights the caller binds at
  /// run time (the executor's). A list constant that torch prints as
  /// `[<Tensors>]`, without a count, holds the weights `name[0]`,
  /// `name[1]`, ... that are among them.
  std::vector<std::string> runtimeWeightNames;
  /// Run the MLIR verifier on the result. Drivers that verify anyway (such
  /// as mlir-translate's) turn it off to avoid verifying twice.
  bool verify = true;
};

/// Imports one graph file (the main graph and its `with` subgraphs) into a
/// module holding `func.func @graph`. `bufferName` names the text in
/// locations and diagnostics. On error, reports `file:line:col: error: ...`
/// through the context's diagnostic engine and returns null.
mlir::OwningOpRef<mlir::ModuleOp>
importTorchScript(llvm::StringRef text, llvm::StringRef bufferName,
                  mlir::MLIRContext *context,
                  const ImportOptions &options = {});

/// Loads the dialects an imported module uses into `context`.
void loadImportDialects(mlir::MLIRContext *context);

/// The prim type that `text` spells as TorchScript prints types
/// (`Float(2, 3)`, `Long(requires_grad=0, device=cpu)`, `Float(*, 4)`,
/// `int[]`), checked as the verifier would; null with the reason, and the
/// column within `text` where the parser stopped, in `error`.
mlir::Type parseTorchType(mlir::MLIRContext *context, llvm::StringRef text,
                          std::string &error);

/// Adds the importer's reading of type text to the prim dialect
/// (prim::TorchTypeTextInterface), for passes that take types as text.
void registerTorchTypeText(mlir::DialectRegistry &registry);

} // namespace tsir

#endif // TSIR_IMPORTER_IMPORTER_H
