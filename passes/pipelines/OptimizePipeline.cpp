//===- OptimizePipeline.cpp - tsir-optimize -------------------------------===//
//
// TorchScript's graph optimizer as one pipeline, in the order of the
// profiling executor (profiling_graph_executor_impl.cpp): inline, then the
// cleanup passes, then the mutation and loop passes, then fusion.
//
//===----------------------------------------------------------------------===//

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void tsir::buildOptimizePipeline(OpPassManager &pm,
                                 const OptimizePipelineOptions &options) {
  if (options.inlineSubgraphs)
    pm.addPass(createPrimInlineSubgraphsPass());
  pm.addPass(createPrimDCEPass());
  pm.addPass(createPrimCSEPass());
  pm.addPass(createPrimConstantPropagationPass());
  pm.addPass(createPrimConstantPoolingPass());
  pm.addPass(createPrimPeepholePass());
  pm.addPass(createPrimLowerTuplesPass());
  pm.addPass(createPrimRemoveMutationPass());
  if (options.unroll) {
    PrimUnrollLoopsPassOptions unrollOptions;
    unrollOptions.unrollFactor = options.unrollFactor;
    pm.addPass(createPrimUnrollLoopsPass(unrollOptions));
    // Unrolled bodies expose constants and repeated work, as in TorchScript,
    // which runs constant propagation and CSE again after unrolling.
    pm.addPass(createPrimConstantPropagationPass());
    pm.addPass(createPrimConstantPoolingPass());
    pm.addPass(createPrimCSEPass());
  }
  pm.addPass(createPrimDCEPass());
  if (options.fuse)
    pm.addPass(createTsirCreateFusionGroupsPass());
}

void tsir::registerOptimizePipeline() {
  PassPipelineRegistration<OptimizePipelineOptions>(
      "tsir-optimize",
      "TorchScript's graph optimizations, in the profiling executor's order",
      [](OpPassManager &pm, const OptimizePipelineOptions &options) {
        // The passes run on each graph: nested from a module (or an
        // implicit anchor), directly where the caller already nested it
        // in `func.func(...)`. Nesting twice would run them on nothing.
        if (pm.getOpAnchorName() == func::FuncOp::getOperationName())
          buildOptimizePipeline(pm, options);
        else
          buildOptimizePipeline(pm.nest<func::FuncOp>(), options);
      });
}
