//===- Losses.cpp - Loss functions as the aten ops that lower -------------===//
//
// populateLossDecompositionPatterns (Decompositions.h). torch.nn.NLLLoss
// (F.nll_loss) calls `nll_loss_nd`, which ATen defines as nll_loss for an
// input of 1 or 2 dims and as nll_loss2d or a reshape around nll_loss for
// more (aten/src/ATen/native/LossNLL.cpp). tsir's nll_loss lowering takes
// [C], [N, C] and [N, C, d...] alike, so nll_loss_nd is nll_loss with the
// same arguments.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Decompositions.h"

#include "GenericPattern.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// nll_loss_nd(self, target, weight, reduction, ignore_index): nll_loss.
struct DecomposeNllLossNd : GenericKindPattern {
  DecomposeNllLossNd(MLIRContext *context)
      : GenericKindPattern(context, "aten::nll_loss_nd", 5, 1) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    rewriter.replaceOpWithNewOp<aten::NllLossOp>(
        op, op->getResult(0).getType(), in[0], in[1], in[2], in[3], in[4]);
    return success();
  }
};

} // namespace

void tsir::populateLossDecompositionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeNllLossNd>(patterns.getContext());
}
