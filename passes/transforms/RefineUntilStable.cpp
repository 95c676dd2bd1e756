//===- RefineUntilStable.cpp - tsir-refine-until-stable -------------------===//
//
// Refinement and folding in rounds until a round changes nothing: the last
// step of tsir-specialize (see passes/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRREFINEUNTILSTABLEPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

/// One round of tsir-refine-until-stable. A branch that folds can leave
/// writes to a list literal in straight-line code (Swin's
/// `shift_size[0] = 0` when the window covers the map): remove-mutation
/// folds them, and the list's reads fold in the next round.
static void buildRefineRound(OpPassManager &pm) {
  pm.addPass(createTsirRefineTypesPass());
  // The profiling executor's guards, once the inputs' types decide them.
  pm.addPass(createTsirFoldProfilingGuardsPass());
  pm.addPass(createTsirDecomposePass());
  pm.addPass(createPrimPeepholePass());
  pm.addPass(createPrimConstantPropagationPass());
  // A loop whose trip count the round made constant (a decomposition's
  // loop over a rank) unrolls, as TorchScript unrolls after specializing;
  // only fully: a partial unroll would grow every round.
  PrimUnrollLoopsPassOptions fullUnrollOnly;
  fullUnrollOnly.unrollFactor = 1;
  pm.addPass(createPrimUnrollLoopsPass(fullUnrollOnly));
  pm.addPass(createPrimRemoveMutationPass());
  pm.addPass(createPrimDCEPass());
}

namespace {
struct TsirRefineUntilStablePass
    : tsir::impl::TsirRefineUntilStablePassBase<TsirRefineUntilStablePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager round(func::FuncOp::getOperationName());
    buildRefineRound(round);
    round.getDependentDialects(registry);
  }

  void runOnOperation() override {
    OpPassManager round(func::FuncOp::getOperationName());
    buildRefineRound(round);
    for (unsigned i = 0; i < maxRounds; ++i) {
      OperationFingerPrint before(getOperation());
      if (failed(runPipeline(round, getOperation())))
        return signalPassFailure();
      if (OperationFingerPrint(getOperation()) == before)
        return;
    }
  }
};
} // namespace
