//===- tsir-opt.cpp - mlir-opt with the prim and aten dialects ------------===//
//
// The standard MLIR driver with tsir's dialects and passes and upstream's
// registered, so any pipeline can be run on TorchScript IR.
//
//===----------------------------------------------------------------------===//

#include "tsir/InitAll.h"
#include "tsir/Support/ToolOptions.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tsir::hideLibraryOptions();
  mlir::registerAllPasses();
  tsir::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tsir::registerAllDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tsir optimizer driver\n", registry));
}
