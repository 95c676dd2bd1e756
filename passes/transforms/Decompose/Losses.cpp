//===- Losses.cpp - Loss functions as the aten ops that lower -------------===//
//
// populateLossDecompositionPatterns (Decompositions.h). torch.nn.NLLLoss
// (F.nll_loss) calls `nll_loss_nd`, which ATen defines as nll_loss for an
// input of 1 or 2 dims and as nll_loss2d or a reshape around nll_loss for
// more (aten/src/ATen/native/LossNLL.cpp). tsir's nll_loss lowering takes
// [C], [N, C] and [N, C, d...] alike, so nll_loss_nd is nll_loss with the
// same arguments.
//
// cross_entropy_loss with class probabilities as the target (a floating
// target of the input's shape; its lowering takes class indices) is
// ATen's cross_entropy_loss_prob_target (LossNLL.cpp):
//
//   t = target * (1 - label_smoothing) + label_smoothing / C
//   l = -(log_softmax(input, class_dim) * t * weight[c]).sum(class_dim)
//
// reduced by none, sum, or the sum over the input's element count / C.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
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

/// cross_entropy_loss(self, target, weight, reduction, ignore_index,
/// label_smoothing) of a floating target: class probabilities.
struct DecomposeCrossEntropyOfProbabilities
    : OpRewritePattern<aten::CrossEntropyLossOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(aten::CrossEntropyLossOp op,
                                PatternRewriter &rewriter) const override {
    auto targetType = dyn_cast<prim::TensorType>(op.getTarget().getType());
    if (!targetType || !targetType.getDtype() ||
        !isa<FloatType>(targetType.getDtype()))
      return rewriter.notifyMatchFailure(op, "class indices as the target");
    std::optional<Shape> x = Shape::of(op.getSelf());
    std::optional<int64_t> reduction =
        matchConstantInt(op.getReduction());
    std::optional<int64_t> ignoreIndex =
        matchConstantInt(op.getIgnoreIndex());
    std::optional<double> smoothing =
        matchConstantFloat(op.getLabelSmoothing());
    if (!x || x->sizes.empty() || !reduction || *reduction < 0 ||
        *reduction > 2 || !ignoreIndex || !smoothing)
      return rewriter.notifyMatchFailure(op, "needs static sizes and "
                                             "constant options");
    // torch refuses an ignore_index (the default is -100) here; the
    // lowering reports it, as the node stays.
    if (*ignoreIndex >= 0)
      return rewriter.notifyMatchFailure(op, "an ignore_index");
    int64_t rank = x->sizes.size();
    int64_t classDim = rank == 1 ? 0 : 1;
    int64_t classes = x->sizes[classDim];
    int64_t count = 1;
    for (int64_t size : x->sizes)
      count *= size;

    Location loc = op.getLoc();
    Type any = anyTensor(rewriter);
    Value none = noneConstant(rewriter, loc);
    Value logProbs = aten::LogSoftmaxIntOp::create(
        rewriter, loc, any, op.getSelf(), intConstant(rewriter, loc, classDim),
        none);
    Value target = op.getTarget();
    if (*smoothing > 0) {
      target = aten::MulScalarOp::create(
          rewriter, loc, any, target,
          floatConstant(rewriter, loc, 1.0 - *smoothing));
      target = aten::AddScalarOp::create(
          rewriter, loc, any, target,
          floatConstant(rewriter, loc, *smoothing / double(classes)),
          intConstant(rewriter, loc, 1));
    }
    Value terms =
        aten::MulTensorOp::create(rewriter, loc, any, logProbs, target);
    if (!isNone(op.getWeight())) {
      SmallVector<int64_t> weightShape(rank, 1);
      weightShape[classDim] = classes;
      Value weight = aten::ReshapeOp::create(
          rewriter, loc, any, op.getWeight(),
          intList(rewriter, loc, weightShape));
      terms = aten::MulTensorOp::create(rewriter, loc, any, terms, weight);
    }
    Type resultType = op->getResult(0).getType();
    Value summed;
    if (*reduction == 0)
      summed = aten::SumDimIntListOp::create(
          rewriter, loc, any, terms, intList(rewriter, loc, {classDim}),
          boolConstant(rewriter, loc, false), none);
    else
      summed = aten::SumOp::create(rewriter, loc, any, terms, none);
    Value loss = aten::NegOp::create(
        rewriter, loc, *reduction == 1 ? any : resultType, summed);
    if (*reduction == 1)
      loss = aten::DivScalarOp::create(
          rewriter, loc, resultType, loss,
          floatConstant(rewriter, loc, double(count / classes)));
    rewriter.replaceOp(op, loss);
    return success();
  }
};

} // namespace

void tsir::populateLossDecompositionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeNllLossNd>(patterns.getContext());
  patterns.add<DecomposeCrossEntropyOfProbabilities>(patterns.getContext());
}
