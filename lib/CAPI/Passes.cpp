//===- Passes.cpp - Registering tsir's passes from C ----------------------===//
//
// The registration functions of tsir-c/Passes.h, over tsir/InitAll.h and
// the generated registrations of each pass group.
//
//===----------------------------------------------------------------------===//

#include "tsir-c/Passes.h"

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/InitAll.h"
#include "tsir/Transforms/Passes.h"

void tsirRegisterAllPasses() { tsir::registerAllPasses(); }

void tsirRegisterTransformsPasses() {
  tsir::registerTsirTransformsPasses();
  tsir::registerOptimizePipeline();
}

void tsirRegisterConversionPasses() {
  tsir::registerTsirConversionPasses();
  tsir::registerLoweringPipelines();
}
