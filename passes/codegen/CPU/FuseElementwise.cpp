//===- FuseElementwise.cpp - tsir-fuse-elementwise -------------------------===//
//
// Elementwise fusion on tensors, with a cost rule MLIR's own
// linalg-fuse-elementwise-ops (a test pass, "opinionated") lacks: a
// producer is fused into a consumer only where the consumer reads each of
// its elements once. Fusing a ReLU into the matrix product that reads its
// result would recompute it for every column of the product and, worse,
// turn the product into a generic op with a ReLU in its body, which no GEMM
// kernel matches (the transformer's feed-forward block ran as scalar loops).
// Chains of pointwise ops, broadcasts into them and producers of plain
// reductions still fuse into one loop nest.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRFUSEELEMENTWISEPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// Whether fusing `producer` into its use `consumer` computes each of the
/// producer's elements at most once per consumer iteration space walk: the
/// consumer has no reductions, or its map for the operand is a permutation
/// of all of its loops.
bool readsEachElementOnce(OpOperand &consumer) {
  auto op = dyn_cast<linalg::LinalgOp>(consumer.getOwner());
  if (!op || op.getNumReductionLoops() == 0)
    return true;
  return op.getMatchingIndexingMap(&consumer).isPermutation();
}

struct FuseElementwisePass
    : tsir::impl::TsirFuseElementwisePassBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // `fused` is the consumer's operand that the producer's result feeds.
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      return fused->get().hasOneUse() && readsEachElementOnce(*fused);
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    // A product stays in the shape its lowering gave it: expanding a
    // linear layer's [H*W, C] rows back into [1, H, W, C] to meet the
    // reshape after it would leave the GEMM kernels one spatial row as m
    // (ConvNeXt's 1x1 layers ran as 14-row products, in the dot kernel).
    linalg::ControlFusionFn expandUnlessProduct = [control](OpOperand *fused) {
      auto producer = fused->get().getDefiningOp<linalg::LinalgOp>();
      if (producer && linalg::isaContractionOpInterface(producer))
        return false;
      return control(fused);
    };
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      expandUnlessProduct);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
