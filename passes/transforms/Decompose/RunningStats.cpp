//===- RunningStats.cpp - A training batch norm's running statistics -----===//
//
// populateRunningStatsPatterns (Decompositions.h). In training mode,
// `aten::batch_norm` normalizes with the batch's statistics and also
// updates the running ones in place, as ATen's batch_norm_cpu_update_stats
// does:
//
//   running_mean = (1 - momentum) * running_mean + momentum * mean
//   running_var  = (1 - momentum) * running_var + momentum * var (unbiased)
//
// The update is split off as its own in-place ops on the two buffers
// (`mul_`, `add_`), and the batch norm is left without running statistics,
// which in training mode it does not read. What follows handles those ops
// as any other in-place write to a graph's weight: the executor writes the
// new values into the weights' memory (a torch module's buffers, when the
// graph came from `tsir.from_torch`). Both the plain lowering and
// tsir-differentiate's batch norm see a batch norm of batch statistics
// only, and the update is never differentiated (no gradient reaches it).
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

bool isTrue(Value flag) {
  auto constant = flag.getDefiningOp<prim::ConstantOp>();
  auto value = constant ? dyn_cast<BoolAttr>(constant.getValueAttr())
                        : BoolAttr();
  return value && value.getValue();
}

struct SplitRunningStatsUpdate : OpRewritePattern<aten::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(aten::BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Value runningMean = op.getRunningMean(), runningVar = op.getRunningVar();
    if (!isTrue(op.getTraining()) ||
        !isa<prim::TensorType>(runningMean.getType()) ||
        !isa<prim::TensorType>(runningVar.getType()))
      return rewriter.notifyMatchFailure(op, "not training with running "
                                             "statistics");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type tensor = prim::TensorType::get(context);
    Value one = intConstant(rewriter, loc, 1);
    Value none = noneConstant(rewriter, loc);
    Value noKeepdim = boolConstant(rewriter, loc, false);

    // The statistics over every dim but the channels: the input seen as
    // [N, C, L] (any rank from 2 up; a reshape, not a copy, of a contiguous
    // input), reduced over dims 0 and 2. Moving the channels last instead
    // made a transposing copy, then reduced with a stride of C.
    Value zero = intConstant(rewriter, loc, 0);
    Value minusOne = intConstant(rewriter, loc, -1);
    Value batch = aten::SizeIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                          op.getInput(), zero);
    Value channels = aten::SizeIntOp::create(rewriter, loc,
                                             rewriter.getI64Type(),
                                             op.getInput(), one);
    Value rowsShape = prim::ListConstructOp::create(
        rewriter, loc, prim::ListType::get(context, rewriter.getI64Type()),
        ValueRange{batch, channels, minusOne});
    Value rows = aten::ReshapeOp::create(rewriter, loc, tensor, op.getInput(),
                                         rowsShape);
    Value overRows = intList(rewriter, loc, {0, 2});
    Value mean = aten::MeanDimOp::create(rewriter, loc, tensor, rows,
                                         overRows, noKeepdim, none);
    Value unbiasedVar = aten::VarCorrectionOp::create(
        rewriter, loc, tensor, rows, overRows, one, noKeepdim);

    Value momentum = op.getMomentum();
    Value keep = aten::SubFloatOp::create(rewriter, loc,
                                          rewriter.getF64Type(),
                                          floatConstant(rewriter, loc, 1.0),
                                          momentum);
    for (auto [running, batch] :
         {std::pair{runningMean, mean}, std::pair{runningVar, unbiasedVar}}) {
      Value decayed = aten::Mul_ScalarOp::create(
          rewriter, loc, running.getType(), running, keep);
      aten::Add_TensorOp::create(rewriter, loc, running.getType(), decayed,
                                 batch, momentum);
    }

    rewriter.modifyOpInPlace(op, [&] {
      op.getRunningMeanMutable().assign(none);
      op.getRunningVarMutable().assign(none);
    });
    return success();
  }
};

} // namespace

void tsir::populateRunningStatsPatterns(RewritePatternSet &patterns) {
  patterns.add<SplitRunningStatsUpdate>(patterns.getContext());
}
