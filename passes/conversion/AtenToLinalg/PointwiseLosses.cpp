//===- PointwiseLosses.cpp - convert-aten-to-linalg: per-element losses ---===//
//
// Losses that are one formula per element followed by torch's reduction
// (none, mean or sum): mse, l1, smooth_l1, huber, soft_margin, margin_ranking,
// hinge_embedding, kl_div (with and without log_target) and
// binary_cross_entropy (with an optional weight; logs clamped at -100 as
// torch does). The formulas are torch's CPU ones. Part of the Misc family.
//
//===----------------------------------------------------------------------===//

#include "LossSupport.h"
#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Broadcast.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

using LossBody = Value (*)(OpBuilder &, Location, ValueRange);

Value constant(OpBuilder &b, Location loc, Value like, double value) {
  return createScalarConstant(b, loc, like.getType(), value);
}

Value maxWithZero(OpBuilder &b, Location loc, Value x) {
  return arith::MaximumFOp::create(b, loc, x, constant(b, loc, x, 0));
}

Value absDiff(OpBuilder &b, Location loc, Value x, Value y) {
  return math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, y));
}

/// (x - t)^2.
Value mseBody(OpBuilder &b, Location loc, ValueRange e) {
  Value diff = arith::SubFOp::create(b, loc, e[0], e[1]);
  return arith::MulFOp::create(b, loc, diff, diff);
}

/// |x - t|.
Value l1Body(OpBuilder &b, Location loc, ValueRange e) {
  return absDiff(b, loc, e[0], e[1]);
}

/// d = |x - t|; d < beta ? d^2 / (2 beta) : d - beta / 2 (beta 0 is l1).
Value smoothL1Body(OpBuilder &b, Location loc, ValueRange e) {
  Value d = absDiff(b, loc, e[0], e[1]);
  Value beta = e[2];
  Value half = constant(b, loc, d, 0.5);
  Value quadratic = arith::DivFOp::create(
      b, loc, arith::MulFOp::create(b, loc, half, arith::MulFOp::create(b, loc, d, d)),
      beta);
  Value linear =
      arith::SubFOp::create(b, loc, d, arith::MulFOp::create(b, loc, half, beta));
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, d, beta);
  return arith::SelectOp::create(b, loc, small, quadratic, linear);
}

/// d = |x - t|; d < delta ? d^2 / 2 : delta (d - delta / 2).
Value huberBody(OpBuilder &b, Location loc, ValueRange e) {
  Value d = absDiff(b, loc, e[0], e[1]);
  Value delta = e[2];
  Value half = constant(b, loc, d, 0.5);
  Value quadratic =
      arith::MulFOp::create(b, loc, half, arith::MulFOp::create(b, loc, d, d));
  Value linear = arith::MulFOp::create(
      b, loc, delta,
      arith::SubFOp::create(b, loc, d, arith::MulFOp::create(b, loc, half, delta)));
  Value small =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, d, delta);
  return arith::SelectOp::create(b, loc, small, quadratic, linear);
}

/// log(1 + exp(-t x)).
Value softMarginBody(OpBuilder &b, Location loc, ValueRange e) {
  Value z = arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, e[1], e[0]));
  return math::LogOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, constant(b, loc, z, 1),
                            math::ExpOp::create(b, loc, z)));
}

/// max(0, -t (x1 - x2) + margin).
Value marginRankingBody(OpBuilder &b, Location loc, ValueRange e) {
  Value difference = arith::SubFOp::create(b, loc, e[0], e[1]);
  Value scaled = arith::NegFOp::create(
      b, loc, arith::MulFOp::create(b, loc, e[2], difference));
  return maxWithZero(b, loc, arith::AddFOp::create(b, loc, scaled, e[3]));
}

/// (t != 1 ? max(0, margin - x) : 0) + (t != -1 ? x : 0).
Value hingeEmbeddingBody(OpBuilder &b, Location loc, ValueRange e) {
  Value x = e[0], t = e[1], margin = e[2];
  Value zero = constant(b, loc, x, 0);
  Value marginPart =
      maxWithZero(b, loc, arith::SubFOp::create(b, loc, margin, x));
  Value notOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, t,
                                       constant(b, loc, t, 1));
  Value notMinusOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE,
                                            t, constant(b, loc, t, -1));
  return arith::AddFOp::create(
      b, loc, arith::SelectOp::create(b, loc, notOne, marginPart, zero),
      arith::SelectOp::create(b, loc, notMinusOne, x, zero));
}

/// xlogy(t, t) - t x.
Value klDivBody(OpBuilder &b, Location loc, ValueRange e) {
  Value x = e[0], t = e[1];
  Value zero = constant(b, loc, t, 0);
  Value tLogT =
      arith::MulFOp::create(b, loc, t, math::LogOp::create(b, loc, t));
  Value tIsZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, t, zero);
  Value xlogy = arith::SelectOp::create(b, loc, tIsZero, zero, tLogT);
  return arith::SubFOp::create(b, loc, xlogy, arith::MulFOp::create(b, loc, t, x));
}

/// With log_target: exp(t) (t - x).
Value klDivLogTargetBody(OpBuilder &b, Location loc, ValueRange e) {
  Value x = e[0], t = e[1];
  return arith::MulFOp::create(b, loc, math::ExpOp::create(b, loc, t),
                               arith::SubFOp::create(b, loc, t, x));
}

/// -(t max(log x, -100) + (1 - t) max(log(1 - x), -100)) [* weight].
Value binaryCrossEntropyBody(OpBuilder &b, Location loc, ValueRange e) {
  Value x = e[0], t = e[1];
  Value one = constant(b, loc, x, 1);
  Value floor = constant(b, loc, x, -100);
  Value logX =
      arith::MaximumFOp::create(b, loc, math::LogOp::create(b, loc, x), floor);
  Value log1mX = arith::MaximumFOp::create(
      b, loc, math::LogOp::create(b, loc, arith::SubFOp::create(b, loc, one, x)),
      floor);
  Value sum = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, t, logX),
      arith::MulFOp::create(b, loc, arith::SubFOp::create(b, loc, one, t),
                            log1mX));
  Value loss = arith::NegFOp::create(b, loc, sum);
  if (e.size() > 2)
    loss = arith::MulFOp::create(b, loc, loss, e[2]);
  return loss;
}

/// A loss computed by `body` over its operands (tensors broadcast to the
/// first one's shape, float Scalars such as margin or beta as elements),
/// then reduced. The reduction operand is at `reductionIndex`; a None
/// operand (an absent weight) is left out. With a `flagIndex`, the bool
/// constant there picks `flagBody` when true (kl_div's log_target).
template <typename OpTy>
struct PointwiseLossPattern : OpConversionPattern<OpTy> {
  PointwiseLossPattern(const TypeConverter &typeConverter, MLIRContext *context,
                       LossBody body, unsigned reductionIndex,
                       int flagIndex = -1, LossBody flagBody = nullptr)
      : OpConversionPattern<OpTy>(typeConverter, context), body(body),
        reductionIndex(reductionIndex), flagIndex(flagIndex),
        flagBody(flagBody) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    ValueRange operands = adaptor.getOperands();
    auto selfType = dyn_cast<RankedTensorType>(operands[0].getType());
    std::optional<LossReduction> reduction =
        readReduction(op->getOperand(reductionIndex));
    if (!type || !selfType || !reduction)
      return rewriter.notifyMatchFailure(op, "unknown type or non-constant "
                                             "reduction");
    Type computeType = getComputeType(type.getElementType());
    if (!isa<FloatType>(computeType))
      return rewriter.notifyMatchFailure(op, "loss of integers");
    LossBody chosen = body;
    if (flagIndex >= 0) {
      std::optional<bool> flag = matchConstantBool(op->getOperand(flagIndex));
      if (!flag)
        return rewriter.notifyMatchFailure(op, "flag is not a constant");
      if (*flag)
        chosen = flagBody;
    }
    SmallVector<Value> elements;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      if (i == reductionIndex || static_cast<int>(i) == flagIndex ||
          isNone(op->getOperand(i)))
        continue;
      elements.push_back(operands[i]);
    }
    Location loc = op.getLoc();
    Value losses =
        buildElementwiseOp(rewriter, loc, selfType.clone(computeType),
                           elements, computeType,
                           [&](OpBuilder &b, Location l, ValueRange e) {
                             return chosen(b, l, e);
                           });
    Value result =
        losses ? finishLoss(rewriter, loc, losses, *reduction, type) : nullptr;
    if (!result)
      return rewriter.notifyMatchFailure(op, "operands do not broadcast to "
                                             "the input's shape");
    rewriter.replaceOp(op, result);
    return success();
  }

  LossBody body;
  unsigned reductionIndex;
  int flagIndex;
  LossBody flagBody;
};

template <typename OpTy>
void addLoss(const TypeConverter &typeConverter, RewritePatternSet &patterns,
             LossBody body, unsigned reductionIndex, int flagIndex = -1,
             LossBody flagBody = nullptr) {
  patterns.add<PointwiseLossPattern<OpTy>>(typeConverter, patterns.getContext(),
                                           body, reductionIndex, flagIndex,
                                           flagBody);
}

} // namespace

void conversion::populatePointwiseLossPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  auto &tc = typeConverter;
  // Operand order is the schema's: (self, target, reduction, beta) etc.
  addLoss<aten::MseLossOp>(tc, patterns, mseBody, 2);
  addLoss<aten::L1LossOp>(tc, patterns, l1Body, 2);
  addLoss<aten::SmoothL1LossOp>(tc, patterns, smoothL1Body, 2);
  addLoss<aten::HuberLossOp>(tc, patterns, huberBody, 2);
  addLoss<aten::SoftMarginLossOp>(tc, patterns, softMarginBody, 2);
  addLoss<aten::MarginRankingLossOp>(tc, patterns, marginRankingBody, 4);
  addLoss<aten::HingeEmbeddingLossOp>(tc, patterns, hingeEmbeddingBody, 3);
  addLoss<aten::KlDivOp>(tc, patterns, klDivBody, 2, 3, klDivLogTargetBody);
  addLoss<aten::BinaryCrossEntropyOp>(tc, patterns, binaryCrossEntropyBody, 3);
}
