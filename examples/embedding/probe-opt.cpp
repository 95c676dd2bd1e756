//===- probe-opt.cpp - An opt tool with tsir's dialects and its own -------===//
//
// What an embedding compiler's driver looks like: upstream's func dialect,
// tsir's prim and aten dialects and every tsir pass, registered with two
// calls from tsir/InitAll.h, beside the embedder's own dialect and pass.
//
//===----------------------------------------------------------------------===//

#include "ProbeDialect.h"

#include "tsir/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tsir::registerAllPasses();
  probe::registerTapOutputsPass();

  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, probe::ProbeDialect>();
  tsir::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "probe-opt: tsir embedded in another compiler\n", registry));
}
