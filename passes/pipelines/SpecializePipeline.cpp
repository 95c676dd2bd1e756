//===- SpecializePipeline.cpp - tsir-specialize ---------------------------===//
//
// What the executor does to a graph for one input spec before lowering, as
// one pipeline: weights become arguments, types are refined to the spec,
// composite ops decompose, TorchScript's optimizer runs (without fusion),
// and refinement and folding repeat until nothing changes
// (tsir-refine-until-stable). The executor
// (lib/compiler/CompilePipeline.cpp) runs these builders stage by stage, so
// `tsir-opt --tsir-specialize="arg-spec=... weights=..."` reproduces the
// graph any of its plans was lowered from.
//
//===----------------------------------------------------------------------===//

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace tsir;

void tsir::buildBindWeightsPipeline(OpPassManager &pm,
                                    ArrayRef<std::string> weightNames) {
  pm.addPass(createPrimInlineSubgraphsPass());
  pm.addPass(createTsirForwardAttributeWritesPass());
  TsirExternalizeWeightsPassOptions externalize;
  externalize.names.assign(weightNames.begin(), weightNames.end());
  pm.addPass(createTsirExternalizeWeightsPass(externalize));
}

void tsir::buildRefineToSpecPipeline(OpPassManager &pm,
                                     std::unique_ptr<Pass> refineTypes) {
  pm.addPass(std::move(refineTypes));
  // Composite ops become the ops that lower, and splits whose pieces the
  // sizes decide become list literals, which lets loops over them unroll
  // into straight-line code.
  pm.addPass(createTsirDecomposePass());
}

void tsir::buildSpecializedOptimizePipeline(OpPassManager &pm) {
  OptimizePipelineOptions optimize;
  optimize.fuse = false;
  // Loops unroll only fully here. A loop over a list whose length a later
  // refinement round learns (a detection model's loop over its feature
  // maps, built by appends in another loop) must still be whole then to
  // unroll; split by 8 into a main loop and an epilogue, it would stay a
  // loop over a list of unknown length, and so would every loop after it.
  optimize.unrollFactor = 1;
  buildOptimizePipeline(pm, optimize);
  // As TorchScript does after unrolling: appends to a list literal in the
  // unrolled bodies become the literal, and its reads fold.
  pm.addPass(createPrimRemoveMutationPass());
  pm.addPass(createPrimPeepholePass());
  // Unrolled loops and folded branches refine further, and what they leave
  // (an attention fast path once its guards fold) decomposes.
  pm.addPass(createTsirRefineTypesPass());
  pm.addPass(createTsirDecomposePass());
  pm.addPass(createPrimConstantPropagationPass());
  pm.addPass(createPrimDCEPass());
  pm.addPass(createTsirRefineUntilStablePass());
}

namespace {
struct SpecializePipelineOptions
    : PassPipelineOptions<SpecializePipelineOptions> {
  Option<std::string> argSpec{
      *this, "arg-spec",
      llvm::cl::desc("the inputs' types, as tsir-refine-types takes them "
                     "(the weights need no entries)"),
      llvm::cl::init("")};
  ListOption<std::string> weights{
      *this, "weights",
      llvm::cl::desc("the weights file's names: inline tensor constants of "
                     "those names are bound to it (tsir-externalize-weights)")};
  Option<bool> optimize{*this, "optimize",
                        llvm::cl::desc("run the optimizer after refining"),
                        llvm::cl::init(true)};
};
} // namespace

void tsir::registerSpecializePipeline() {
  PassPipelineRegistration<SpecializePipelineOptions>(
      "tsir-specialize",
      "what the executor runs for one input spec before lowering",
      [](OpPassManager &pm, const SpecializePipelineOptions &options) {
        OpPassManager &fpm =
            pm.getOpAnchorName() == func::FuncOp::getOperationName()
                ? pm
                : pm.nest<func::FuncOp>();
        buildBindWeightsPipeline(fpm, options.weights);
        TsirRefineTypesPassOptions refine;
        refine.argSpec = options.argSpec;
        buildRefineToSpecPipeline(fpm, createTsirRefineTypesPass(refine));
        if (options.optimize)
          buildSpecializedOptimizePipeline(fpm);
      });
}
