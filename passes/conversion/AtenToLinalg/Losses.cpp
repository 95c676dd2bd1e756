//===- Losses.cpp - convert-aten-to-linalg: loss functions ----------------===//
//
// nll_loss, cross_entropy_loss (log_softmax + nll, with label smoothing)
// and binary_cross_entropy_with_logits (in its numerically stable form),
// each with torch's reductions none/mean/sum; the per-element losses are
// in PointwiseLosses.cpp. Part of the Misc family.
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"
#include "LossSupport.h"
#include "PopulatePatterns.h"
#include "ReductionBuilder.h"
#include "ShapeHelpers.h"

#include "../Common/Broadcast.h"
#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <numeric>

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

std::optional<LossReduction> conversion::readReduction(Value reduction) {
  std::optional<int64_t> value = matchConstantInt(reduction);
  if (!value || *value < 0 || *value > 2)
    return std::nullopt;
  return static_cast<LossReduction>(*value);
}

namespace {
/// The float type a loss of result type `type` computes in.
Type lossComputeType(RankedTensorType type) {
  return getComputeType(type.getElementType());
}

/// The sum of all elements of `losses` (a tensor in the compute type) as a
/// 0-d tensor.
Value sumAll(OpBuilder &b, Location loc, Value losses) {
  auto type = cast<RankedTensorType>(losses.getType());
  SmallVector<int64_t> dims(type.getRank());
  std::iota(dims.begin(), dims.end(), 0);
  Value zero = createScalarConstant(b, loc, type.getElementType(), 0);
  return buildReduction(
      b, loc, losses, {}, dims, zero,
      [](OpBuilder &nb, Location l, ValueRange e,
         ValueRange acc) -> SmallVector<Value> {
        return {arith::AddFOp::create(nb, l, acc[0], e[0]).getResult()};
      })[0];
}

} // namespace

Value conversion::finishLoss(OpBuilder &b, Location loc, Value losses,
                             LossReduction reduction,
                             RankedTensorType resultType, Value count) {
  if (reduction == LossReduction::None) {
    auto lossType = cast<RankedTensorType>(losses.getType());
    if (lossType.getRank() != resultType.getRank())
      return nullptr;
    Value converted =
        convertElementType(b, loc, losses, resultType.getElementType(), false);
    return castToType(b, loc, converted, resultType);
  }
  if (resultType.getRank() != 0)
    return nullptr;
  Value sum = sumAll(b, loc, losses);
  Type computeType = getElementTypeOrSelf(losses.getType());
  if (reduction == LossReduction::Mean && !count) {
    auto lossType = cast<RankedTensorType>(losses.getType());
    SmallVector<int64_t> dims(lossType.getRank());
    std::iota(dims.begin(), dims.end(), 0);
    count = buildElementCount(b, loc, losses, dims, computeType);
  }
  return buildElementwiseOp(
      b, loc, resultType, ValueRange{sum}, computeType,
      [&](OpBuilder &nb, Location l, ValueRange e) -> Value {
        if (reduction == LossReduction::Sum)
          return e[0];
        return arith::DivFOp::create(nb, l, e[0], count);
      });
}

namespace {

/// binary_cross_entropy_with_logits without weights, in torch's stable
/// form: (1 - t) x + m + log(exp(-m) + exp(-x - m)) with m = max(-x, 0).
struct ConvertBceWithLogits
    : OpConversionPattern<aten::BinaryCrossEntropyWithLogitsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::BinaryCrossEntropyWithLogitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto selfType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    std::optional<LossReduction> reduction = readReduction(op.getReduction());
    if (!type || !selfType || !reduction)
      return rewriter.notifyMatchFailure(op, "unknown type or non-constant "
                                             "reduction");
    if (!isNone(op.getWeight()) || !isNone(op.getPosWeight()))
      return op.emitError("binary_cross_entropy_with_logits with a weight "
                          "or pos_weight is not supported yet");
    Type computeType = lossComputeType(type);
    if (!isa<FloatType>(computeType))
      return rewriter.notifyMatchFailure(op, "loss of integers");
    Location loc = op.getLoc();
    Value losses = buildElementwiseOp(
        rewriter, loc, selfType.clone(computeType),
        ValueRange{adaptor.getSelf(), adaptor.getTarget()}, computeType,
        [&](OpBuilder &b, Location l, ValueRange e) -> Value {
          Value x = e[0], t = e[1];
          Value zero = createScalarConstant(b, l, computeType, 0);
          Value one = createScalarConstant(b, l, computeType, 1);
          Value negX = arith::NegFOp::create(b, l, x);
          Value m = arith::MaximumFOp::create(b, l, negX, zero);
          Value linear = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, one, t), x);
          Value expM =
              math::ExpOp::create(b, l, arith::NegFOp::create(b, l, m));
          Value expXM =
              math::ExpOp::create(b, l, arith::SubFOp::create(b, l, negX, m));
          Value log = math::LogOp::create(
              b, l, arith::AddFOp::create(b, l, expM, expXM));
          return arith::AddFOp::create(
              b, l, arith::AddFOp::create(b, l, linear, m), log);
        });
    Value result =
        losses ? finishLoss(rewriter, loc, losses, *reduction, type) : nullptr;
    if (!result)
      return rewriter.notifyMatchFailure(op, "target does not broadcast to "
                                             "the input's shape");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// weight[classIndex] (an i64 class index, in range).
Value classWeight(OpBuilder &b, Location loc, Value weight, Value classIndex) {
  Value index =
      arith::IndexCastOp::create(b, loc, b.getIndexType(), classIndex);
  return tensor::ExtractOp::create(
      b, loc, weight,
      ValueRange{clampIndex(b, loc, index, getDimSize(b, loc, weight, 0))});
}

/// The negative log likelihood of `logProbs` ([N, C, d...] or [C], compute
/// type) at `target` ([N, d...] or [], int64), with the class weights
/// `weight` ([C], compute type) or none (null): -w[t] * logProbs[n, t, d...]
/// with t = target[n, d...], 0 where t is `ignoreIndex`; reduced as asked,
/// the mean dividing by the sum of w[t] over the targets not ignored (their
/// number without weights; NaN when all are ignored, as in torch).
/// With `labelSmoothing` e (cross_entropy's), each loss is ATen's
/// (1 - e) * that + e / C * -sum_c w[c] logProbs[n, c, d...] (0 where
/// ignored), reduced the same way.
Value buildNllLoss(OpBuilder &b, Location loc, Value logProbs, Value target,
                   Value weight, Value ignoreIndex, LossReduction reduction,
                   RankedTensorType resultType, double labelSmoothing = 0.0) {
  auto probsType = cast<RankedTensorType>(logProbs.getType());
  auto targetType = cast<RankedTensorType>(target.getType());
  Type computeType = probsType.getElementType();
  int64_t classDim = probsType.getRank() == 1 ? 0 : 1;
  if (targetType.getRank() != probsType.getRank() - 1)
    return nullptr;
  Type i64 = b.getI64Type();
  if (targetType.getElementType() != i64)
    target = convertElementType(b, loc, target, i64, false);
  auto targetI64 = targetType.clone(i64);
  int64_t targetRank = targetType.getRank();
  // Each target is a class or ignore_index, checked as torch does.
  Value classes = getDimSize(b, loc, logProbs, classDim);
  checkIndicesInRange(b, loc, target, arith::ConstantIndexOp::create(b, loc, 0),
                      classes, "Target is out of bounds.", ignoreIndex);
  Value losses = buildGather(
      b, loc, targetI64.clone(computeType),
      tensor::getMixedSizes(b, loc, target), {target},
      {b.getMultiDimIdentityMap(targetRank)},
      [&](OpBuilder &nb, Location l, ValueRange args, ValueRange at) -> Value {
        Value t = args[0];
        Value ignored = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                              t, ignoreIndex);
        Value safe = arith::SelectOp::create(
            nb, l, ignored, createScalarConstant(nb, l, i64, 0), t);
        SmallVector<Value> position(at.begin(), at.end());
        position.insert(
            position.begin() + classDim,
            clampIndex(nb, l,
                       arith::IndexCastOp::create(nb, l, nb.getIndexType(),
                                                  safe),
                       classes));
        Value logProb = tensor::ExtractOp::create(nb, l, logProbs, position);
        Value loss = arith::NegFOp::create(nb, l, logProb);
        if (weight)
          loss = arith::MulFOp::create(nb, l, loss,
                                       classWeight(nb, l, weight, safe));
        return arith::SelectOp::create(
            nb, l, ignored, createScalarConstant(nb, l, computeType, 0), loss);
      });
  if (labelSmoothing != 0.0) {
    int64_t classes = probsType.getDimSize(classDim);
    if (ShapedType::isDynamic(classes))
      return nullptr;
    Value sums = buildReduction(
        b, loc, logProbs, {}, {classDim},
        createScalarConstant(b, loc, computeType, 0),
        [&](OpBuilder &nb, Location l, ValueRange e,
            ValueRange acc) -> SmallVector<Value> {
          Value term = e[0];
          if (weight) {
            Value c = linalg::IndexOp::create(nb, l, classDim);
            Value w = tensor::ExtractOp::create(nb, l, weight, ValueRange{c});
            term = arith::MulFOp::create(nb, l, term, w);
          }
          return {arith::AddFOp::create(nb, l, acc[0], term).getResult()};
        })[0];
    ElementwiseOperand operands[] = {
        {losses, Type(), false}, {sums, Type(), false}, {target, Type(), false}};
    losses = buildElementwiseOp(
        b, loc, cast<RankedTensorType>(losses.getType()), operands,
        [&](OpBuilder &nb, Location l, ValueRange e) -> Value {
          Value ignored = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::eq, e[2], ignoreIndex);
          Value smooth = arith::SelectOp::create(
              nb, l, ignored, createScalarConstant(nb, l, computeType, 0),
              arith::NegFOp::create(nb, l, e[1]));
          Value kept = arith::MulFOp::create(
              nb, l, e[0],
              createScalarConstant(nb, l, computeType, 1.0 - labelSmoothing));
          Value spread = arith::MulFOp::create(
              nb, l, smooth,
              createScalarConstant(nb, l, computeType,
                                   labelSmoothing / double(classes)));
          return arith::AddFOp::create(nb, l, kept, spread);
        });
  }
  Value count;
  if (reduction == LossReduction::Mean) {
    SmallVector<int64_t> dims(targetRank);
    std::iota(dims.begin(), dims.end(), 0);
    Value counted = buildReduction(
        b, loc, target, {}, dims, createScalarConstant(b, loc, computeType, 0),
        [&](OpBuilder &nb, Location l, ValueRange e,
            ValueRange acc) -> SmallVector<Value> {
          Value kept = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne,
                                             e[0], ignoreIndex);
          Value counted = arith::UIToFPOp::create(nb, l, computeType, kept);
          if (weight) {
            Value safe = arith::SelectOp::create(
                nb, l, kept, e[0], createScalarConstant(nb, l, i64, 0));
            counted = arith::MulFOp::create(nb, l, counted,
                                            classWeight(nb, l, weight, safe));
          }
          return {arith::AddFOp::create(nb, l, acc[0], counted).getResult()};
        })[0];
    count = tensor::ExtractOp::create(b, loc, counted, ValueRange{});
  }
  return finishLoss(b, loc, losses, reduction, resultType, count);
}

/// The operands nll_loss and cross_entropy_loss share, checked.
struct NllOperands {
  RankedTensorType resultType;
  Type computeType;
  LossReduction reduction;
  Value weight; // the class weights in the compute type, or null
};

template <typename OpTy>
FailureOr<NllOperands> readNllOperands(OpTy op, typename OpTy::Adaptor adaptor,
                                       const TypeConverter &converter,
                                       ConversionPatternRewriter &rewriter) {
  RankedTensorType type = getResultTensorType(converter, op);
  auto selfType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
  auto targetType = dyn_cast<RankedTensorType>(adaptor.getTarget().getType());
  std::optional<LossReduction> reduction = readReduction(op.getReduction());
  if (!type || !selfType || !targetType || !reduction)
    return rewriter.notifyMatchFailure(op, "unknown type or non-constant "
                                           "reduction");
  StringRef name = op->getName().getStringRef();
  if (!isa<IntegerType>(targetType.getElementType())) {
    // cross_entropy's class probabilities are decomposed (Decompose/
    // Losses.cpp) where torch takes them; nll_loss takes indices only.
    std::optional<int64_t> ignoreIndex = matchConstantInt(op.getIgnoreIndex());
    if (!std::is_same_v<OpTy, aten::CrossEntropyLossOp>)
      op.emitError() << name << ": expected scalar type Long but found "
                     << targetType.getElementType();
    else if (ignoreIndex && *ignoreIndex >= 0)
      op.emitError("ignore_index is not supported for floating point target");
    else
      op.emitError() << name
                     << " with class probabilities as the target needs "
                        "static sizes and a constant reduction and "
                        "label_smoothing";
    return failure();
  }
  if (selfType.getRank() < 1 ||
      selfType.getRank() != targetType.getRank() + 1) {
    op.emitError() << name << " of input " << selfType << " and target "
                   << targetType
                   << ": the target must have the input's shape without its "
                      "class dim";
    return failure();
  }
  Type computeType = getComputeType(type.getElementType());
  if (!isa<FloatType>(computeType))
    return rewriter.notifyMatchFailure(op, "loss of integers");
  Value weight;
  if (!isNone(op.getWeight())) {
    auto weightType = dyn_cast<RankedTensorType>(adaptor.getWeight().getType());
    int64_t classes = selfType.getDimSize(selfType.getRank() == 1 ? 0 : 1);
    if (!weightType || weightType.getRank() != 1 ||
        (!weightType.isDynamicDim(0) && !ShapedType::isDynamic(classes) &&
         weightType.getDimSize(0) != classes)) {
      InFlightDiagnostic error = op.emitError();
      error << name << ": weight tensor should be defined either for all "
            << classes
            << " classes or no classes but got weight tensor of shape: [";
      if (weightType)
        llvm::interleaveComma(weightType.getShape(), error);
      error << "]";
      return failure();
    }
    weight = convertElementType(rewriter, op.getLoc(), adaptor.getWeight(),
                                computeType,
                                isUnsignedDtype(op.getWeight().getType()));
  }
  return NllOperands{type, computeType, *reduction, weight};
}

struct ConvertNllLoss : OpConversionPattern<aten::NllLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::NllLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<NllOperands> operands = readNllOperands<aten::NllLossOp>(
        op, adaptor, *getTypeConverter(), rewriter);
    if (failed(operands))
      return failure();
    Location loc = op.getLoc();
    Value probs = convertElementType(rewriter, loc, adaptor.getSelf(),
                                     operands->computeType,
                                     isUnsignedDtype(op.getSelf().getType()));
    Value result = buildNllLoss(rewriter, loc, probs, adaptor.getTarget(),
                                operands->weight, adaptor.getIgnoreIndex(),
                                operands->reduction,
                                operands->resultType);
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// cross_entropy_loss with class indices: nll_loss of log_softmax along the
/// class dim (1, or 0 for an unbatched input).
struct ConvertCrossEntropyLoss : OpConversionPattern<aten::CrossEntropyLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::CrossEntropyLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<NllOperands> operands = readNllOperands<aten::CrossEntropyLossOp>(
        op, adaptor, *getTypeConverter(), rewriter);
    if (failed(operands))
      return failure();
    std::optional<double> smoothing =
        matchConstantFloat(op.getLabelSmoothing());
    if (!smoothing)
      return rewriter.notifyMatchFailure(op, "non-constant label_smoothing");
    if (*smoothing < 0.0 || *smoothing > 1.0)
      return op.emitError() << "label_smoothing must be between 0.0 and 1.0. "
                               "Got: "
                            << *smoothing;
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t classDim = inputType.getRank() == 1 ? 0 : 1;
    Value logProbs =
        buildSoftmax(rewriter, loc, input, {classDim}, operands->computeType,
                     isUnsignedDtype(op.getSelf().getType()),
                     inputType.clone(operands->computeType), /*log=*/true);
    Value result =
        logProbs ? buildNllLoss(rewriter, loc, logProbs, adaptor.getTarget(),
                                operands->weight, adaptor.getIgnoreIndex(),
                                operands->reduction, operands->resultType,
                                *smoothing)
                 : nullptr;
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::conversion::populateLossPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  populatePointwiseLossPatterns(typeConverter, patterns);
  patterns.add<ConvertBceWithLogits, ConvertNllLoss, ConvertCrossEntropyLoss>(
      typeConverter, patterns.getContext());
}
