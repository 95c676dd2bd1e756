//===- DecomposePass.cpp - tsir-decompose ---------------------------------===//
//
// Applies the aten-to-aten decompositions of Decompositions.h greedily: the
// composite ops and the statically sized splits. The executor runs it right
// after specializing a graph to its input spec, when sizes are known.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Decompositions.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRDECOMPOSEPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirDecomposePass
    : tsir::impl::TsirDecomposePassBase<TsirDecomposePass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    tsir::populateCompositeDecompositionPatterns(set);
    tsir::populateMultiResultDecompositionPatterns(set);
    tsir::populateRuntimeQueryFoldingPatterns(set);
    tsir::populateAttentionDecompositionPatterns(set);
    tsir::populateRecurrentCellDecompositionPatterns(set);
    tsir::populateRecurrentLayerDecompositionPatterns(set);
    tsir::populateLossDecompositionPatterns(set);
    tsir::populateBilinearDecompositionPatterns(set);
    tsir::populateComplexPairDecompositionPatterns(set);
    tsir::populateShuffleDecompositionPatterns(set);
    tsir::populateBooleanMaskDecompositionPatterns(set);
    tsir::populateSumToSizeDecompositionPatterns(set);
    tsir::populateRunningStatsPatterns(set);
    tsir::populateStaticListDecompositionPatterns(set);
    tsir::populateGraphDecompositionPatterns(set);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    // Not converging is fine: what is left simply stays composite.
    (void)applyPatternsGreedily(getOperation(), patterns);
  }

  FrozenRewritePatternSet patterns;
};
} // namespace
