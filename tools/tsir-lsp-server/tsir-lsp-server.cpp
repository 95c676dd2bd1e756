//===- tsir-lsp-server.cpp - MLIR's LSP server with prim and aten ---------===//
//
// mlir-lsp-server knows only upstream's dialects, so an editor opening a
// `.mlir` file of TorchScript IR would flag every prim/aten op as unknown.
// This is the same server with tsir's dialects registered beside
// upstream's: diagnostics, hovers, go-to-definition and completion work on
// prim/aten IR.
//
//===----------------------------------------------------------------------===//

#include "tsir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tsir::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirLspServerMain(argc, argv, registry));
}
