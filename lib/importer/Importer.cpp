//===- Importer.cpp - TorchScript graph text to prim/aten MLIR ------------===//
//
// Parses the text, opens the weights, builds and verifies the module.
//
//===----------------------------------------------------------------------===//

#include "tsir/Importer/Importer.h"

#include "MLIRGen.h"
#include "Weights.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Parser.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

void tsir::loadImportDialects(MLIRContext *context) {
  context
      ->loadDialect<prim::PrimDialect, aten::AtenDialect, func::FuncDialect>();
}

OwningOpRef<ModuleOp> tsir::importTorchScript(StringRef text,
                                              StringRef bufferName,
                                              MLIRContext *context,
                                              const ImportOptions &options) {
  loadImportDialects(context);
  ts::ParseError parseError;
  std::optional<ts::GraphFile> file = ts::parseGraphText(text, parseError);
  if (!file) {
    emitError(FileLineColLoc::get(context, bufferName, parseError.pos.line,
                                  parseError.pos.col))
        << parseError.message;
    return nullptr;
  }
  std::unique_ptr<WeightsFile> weights;
  if (!options.weightsPath.empty()) {
    auto opened = WeightsFile::open(options.weightsPath);
    if (!opened) {
      // The problem is in the weights file, not in the graph text.
      emitError(FileLineColLoc::get(context, options.weightsPath, 0, 0))
          << llvm::toString(opened.takeError());
      return nullptr;
    }
    weights = std::move(*opened);
  }
  OwningOpRef<ModuleOp> module =
      buildModule(context, bufferName, *file, weights.get(),
                  options.runtimeWeightNames);
  if (!module || (options.verify && failed(verify(*module))))
    return nullptr;
  return module;
}
