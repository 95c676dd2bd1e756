//===- InitAll.cpp - Register every tsir dialect and pass -----------------===//
//
// The definitions behind tsir/InitAll.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/InitAll.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

void tsir::registerAllDialects(mlir::DialectRegistry &registry) {
  registry
      .insert<prim::PrimDialect, aten::AtenDialect, mlir::func::FuncDialect>();
}

void tsir::registerAllPasses() {
  // Upstream's passes are registered by the tools themselves.
  registerTSIRPasses();
  registerOptimizePipeline();
  registerTsirConversionPasses();
  registerLoweringPipelines();
}
