//===- Activations.cpp - convert-aten-to-linalg: activations and clamp ----===//
//
// relu/relu6/leaky_relu/elu/selu/gelu (erf and tanh forms)/silu/
// hardswish/hardsigmoid/hardtanh/softplus/log_sigmoid/prelu and clamp
// (Scalar and Tensor bounds, clamp_min, clamp_max), mish, celu, the
// shrinks and threshold as broadcasting
// linalg.generics. Each follows torch's CPU formula, including how NaN goes
// through it: relu(NaN) and clamp(NaN) are NaN, a NaN Scalar bound is
// ignored, a NaN Tensor bound propagates.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

static Value constant(OpBuilder &b, Location loc, Value like, double v) {
  return createScalarConstant(b, loc, like.getType(), v);
}

/// `lhs < rhs` in the compute type.
static Value lessThan(OpBuilder &b, Location loc, Value lhs, Value rhs,
                      bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, lhs, rhs);
  return arith::CmpIOp::create(b, loc,
                               isUnsigned ? arith::CmpIPredicate::ult
                                          : arith::CmpIPredicate::slt,
                               lhs, rhs);
}

/// std::max(a, b), which keeps a NaN `a` and ignores a NaN `b`.
static Value stdMax(OpBuilder &b, Location loc, Value a, Value c,
                    bool isUnsigned = false) {
  return arith::SelectOp::create(b, loc, lessThan(b, loc, a, c, isUnsigned), c,
                                 a);
}

/// std::min(a, b), which keeps a NaN `a` and ignores a NaN `b`.
static Value stdMin(OpBuilder &b, Location loc, Value a, Value c,
                    bool isUnsigned = false) {
  return arith::SelectOp::create(b, loc, lessThan(b, loc, c, a, isUnsigned), c,
                                 a);
}

/// clamp with Scalar bounds (null where None): std::min(std::max(x, lo), hi).
static Value clampBody(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &t) {
  Value x = e[0];
  if (e.size() > 1 && e[1])
    x = stdMax(b, loc, x, e[1], t.isUnsigned);
  if (e.size() > 2 && e[2])
    x = stdMin(b, loc, x, e[2], t.isUnsigned);
  return x;
}

/// clamp with Tensor bounds: NaN in a bound propagates, as torch.maximum.
static Value clampTensorBody(OpBuilder &b, Location loc, ValueRange e,
                             const ElementwiseTypes &t) {
  Value x = e[0];
  if (e[1])
    x = buildMax(b, loc, x, e[1], t.isUnsigned);
  if (e[2])
    x = buildMin(b, loc, x, e[2], t.isUnsigned);
  return x;
}

static Value clampMaxBody(OpBuilder &b, Location loc, ValueRange e,
                          const ElementwiseTypes &t) {
  return stdMin(b, loc, e[0], e[1], t.isUnsigned);
}

/// x < 0 ? 0 : x, so that relu(NaN) is NaN and relu(-0.0) is -0.0.
static Value reluBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &t) {
  if (t.isUnsigned)
    return e[0];
  Value zero = constant(b, loc, e[0], 0);
  return arith::SelectOp::create(b, loc, lessThan(b, loc, e[0], zero, false),
                                 zero, e[0]);
}

static Value relu6Body(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &t) {
  Value x = stdMax(b, loc, e[0], constant(b, loc, e[0], 0), t.isUnsigned);
  return stdMin(b, loc, x, constant(b, loc, e[0], 6), t.isUnsigned);
}

/// leaky_relu(x, slope): x > 0 ? x : x * slope.
static Value leakyReluBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &) {
  Value x = e[0];
  Value zero = constant(b, loc, x, 0);
  Value positive = lessThan(b, loc, zero, x, false);
  return arith::SelectOp::create(b, loc, positive, x,
                                 buildMul(b, loc, x, e[1]));
}

/// torch's elu: x <= 0 ? expm1(x * input_scale) * alpha * scale : x * scale.
static Value buildElu(OpBuilder &b, Location loc, Value x, Value alpha,
                      Value scale, Value inputScale) {
  Value zero = constant(b, loc, x, 0);
  Value nonPositive =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, zero);
  Value negative = arith::MulFOp::create(
      b, loc,
      math::ExpM1Op::create(b, loc,
                            arith::MulFOp::create(b, loc, x, inputScale)),
      arith::MulFOp::create(b, loc, alpha, scale));
  Value positive = arith::MulFOp::create(b, loc, x, scale);
  return arith::SelectOp::create(b, loc, nonPositive, negative, positive);
}

static Value eluBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &) {
  return buildElu(b, loc, e[0], e[1], e[2], e[3]);
}

static Value seluBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  Value x = e[0];
  return buildElu(b, loc, x,
                  constant(b, loc, x, 1.6732632423543772848170429916717),
                  constant(b, loc, x, 1.0507009873554804934193349852946),
                  constant(b, loc, x, 1));
}

/// silu(x) = x / (1 + exp(-x)).
static Value siluBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  Value x = e[0];
  Value one = constant(b, loc, x, 1);
  Value expNeg = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, x,
                               arith::AddFOp::create(b, loc, one, expNeg));
}

/// min(max(x + 3, 0), 6) / 6, torch's hardsigmoid.
static Value buildHardsigmoid(OpBuilder &b, Location loc, Value x) {
  Value shifted = arith::AddFOp::create(b, loc, x, constant(b, loc, x, 3));
  Value clamped =
      stdMin(b, loc, stdMax(b, loc, shifted, constant(b, loc, x, 0)),
             constant(b, loc, x, 6));
  return arith::DivFOp::create(b, loc, clamped, constant(b, loc, x, 6));
}

static Value hardsigmoidBody(OpBuilder &b, Location loc, ValueRange e,
                             const ElementwiseTypes &) {
  return buildHardsigmoid(b, loc, e[0]);
}

/// x * min(max(x + 3, 0), 6) / 6.
static Value hardswishBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &) {
  Value x = e[0];
  Value shifted = arith::AddFOp::create(b, loc, x, constant(b, loc, x, 3));
  Value clamped =
      stdMin(b, loc, stdMax(b, loc, shifted, constant(b, loc, x, 0)),
             constant(b, loc, x, 6));
  return arith::DivFOp::create(b, loc,
                               arith::MulFOp::create(b, loc, x, clamped),
                               constant(b, loc, x, 6));
}

/// softplus(x, beta, threshold): x * beta > threshold ? x
/// : log1p(exp(x * beta)) / beta.
static Value softplusBody(OpBuilder &b, Location loc, ValueRange e,
                          const ElementwiseTypes &) {
  Value x = e[0], beta = e[1], threshold = e[2];
  Value scaled = arith::MulFOp::create(b, loc, x, beta);
  Value linear = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                       scaled, threshold);
  Value soft = arith::DivFOp::create(
      b, loc,
      math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, scaled)), beta);
  return arith::SelectOp::create(b, loc, linear, x, soft);
}

/// log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)), stable for large |x|.
static Value logSigmoidBody(OpBuilder &b, Location loc, ValueRange e,
                            const ElementwiseTypes &) {
  Value x = e[0];
  Value zero = constant(b, loc, x, 0);
  Value minimum = stdMin(b, loc, x, zero);
  Value negAbs = arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x));
  Value correction =
      math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, negAbs));
  return arith::SubFOp::create(b, loc, minimum, correction);
}

namespace {
/// gelu(x, approximate): "none" is x * (1 + erf(x / sqrt(2))) / 2, "tanh"
/// is x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) / 2.
class GeluPattern : public OpConversionPattern<aten::GeluOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::GeluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<StringRef> approximate =
        matchConstantString(op.getApproximate());
    if (!approximate || (*approximate != "none" && *approximate != "tanh"))
      return rewriter.notifyMatchFailure(
          op, "approximate is not a constant 'none' or 'tanh'");
    bool useTanh = *approximate == "tanh";
    FailureOr<ElementwiseTypes> types =
        getResultComputeTypes(rewriter, op, *getTypeConverter());
    if (failed(types))
      return failure();
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getSelf(), op.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange e) -> Value {
          Value x = e[0];
          Value half = constant(b, loc, x, 0.5);
          Value one = constant(b, loc, x, 1);
          Value inner;
          if (useTanh) {
            Value cube = arith::MulFOp::create(
                b, loc, arith::MulFOp::create(b, loc, x, x), x);
            Value sum = arith::AddFOp::create(
                b, loc, x,
                arith::MulFOp::create(b, loc, constant(b, loc, x, 0.044715),
                                      cube));
            inner = math::TanhOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, constant(b, loc, x, std::sqrt(2.0 / M_PI)), sum));
          } else {
            inner = math::ErfOp::create(
                b, loc,
                arith::MulFOp::create(b, loc, x,
                                      constant(b, loc, x, M_SQRT1_2)));
          }
          Value factor = arith::AddFOp::create(b, loc, one, inner);
          return arith::MulFOp::create(
              b, loc, arith::MulFOp::create(b, loc, x, half), factor);
        });
  }
};

/// prelu(self, weight): x > 0 ? x : weight * x, with weight (one value, or
/// one per channel) broadcast along dim 1.
class PreluPattern : public OpConversionPattern<aten::PreluOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::PreluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types =
        getResultComputeTypes(rewriter, op, *getTypeConverter());
    if (failed(types))
      return failure();
    Value weight = adaptor.getWeight();
    auto weightType = dyn_cast<RankedTensorType>(weight.getType());
    int64_t rank = types->resultType.getRank();
    if (!weightType || weightType.getRank() > 1)
      return rewriter.notifyMatchFailure(op, "weight is not 0-d or 1-d");
    Location loc = op.getLoc();
    // A per-channel weight [C] becomes [C, 1, ..., 1], which numpy
    // broadcasting aligns with dim 1.
    if (weightType.getRank() == 1 && weightType.getDimSize(0) != 1 &&
        rank > 2) {
      SmallVector<int64_t> shape(rank - 1, 1);
      shape[0] = weightType.getDimSize(0);
      SmallVector<OpFoldResult> outputShape(rank - 1, rewriter.getIndexAttr(1));
      outputShape[0] = tensor::getMixedSize(rewriter, loc, weight, 0);
      ReassociationIndices all;
      for (int64_t dim = 0; dim < rank - 1; ++dim)
        all.push_back(dim);
      weight = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, weightType.getElementType()), weight,
          ArrayRef<ReassociationIndices>{all}, outputShape);
    }
    return replaceWithElementwise(
        rewriter, op, *types, {adaptor.getSelf(), weight},
        {op.getSelf(), op.getWeight()},
        [&](OpBuilder &b, Location l, ValueRange e) -> Value {
          Value x = e[0];
          Value positive = lessThan(b, l, constant(b, l, x, 0), x, false);
          return arith::SelectOp::create(b, l, positive, x,
                                         buildMul(b, l, e[1], x));
        });
  }
};
} // namespace

/// clamp_min/clamp_max with a Tensor bound, NaN-propagating like clamp.
static Value clampMinTensorBody(OpBuilder &b, Location loc, ValueRange e,
                                const ElementwiseTypes &t) {
  return buildMax(b, loc, e[0], e[1], t.isUnsigned);
}

static Value clampMaxTensorBody(OpBuilder &b, Location loc, ValueRange e,
                                const ElementwiseTypes &t) {
  return buildMin(b, loc, e[0], e[1], t.isUnsigned);
}

/// mish(x) = x * tanh(softplus(x)), softplus as log1p(exp(x)).
static Value mishBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  Value x = e[0];
  Value softplus = math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
  return arith::MulFOp::create(b, loc, x, math::TanhOp::create(b, loc, softplus));
}

/// celu(x, alpha) = max(0, x) + min(0, alpha * expm1(x / alpha)).
static Value celuBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  Value x = e[0], alpha = e[1];
  Value zero = constant(b, loc, x, 0);
  Value negative = arith::MulFOp::create(
      b, loc, alpha,
      math::ExpM1Op::create(b, loc, arith::DivFOp::create(b, loc, x, alpha)));
  Value positive = lessThan(b, loc, zero, x, false);
  return arith::SelectOp::create(b, loc, positive, x,
                                 stdMin(b, loc, zero, negative));
}

/// softshrink(x, l): x > l ? x - l : (x < -l ? x + l : 0); NaN stays NaN.
static Value softshrinkBody(OpBuilder &b, Location loc, ValueRange e,
                            const ElementwiseTypes &) {
  Value x = e[0], lambd = e[1];
  Value zero = constant(b, loc, x, 0);
  Value negLambd = arith::NegFOp::create(b, loc, lambd);
  Value inner = arith::SelectOp::create(
      b, loc, lessThan(b, loc, x, negLambd, false),
      arith::AddFOp::create(b, loc, x, lambd),
      arith::SelectOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x), x,
          zero));
  return arith::SelectOp::create(b, loc, lessThan(b, loc, lambd, x, false),
                                 arith::SubFOp::create(b, loc, x, lambd),
                                 inner);
}

/// hardshrink(x, l): -l <= x <= l ? 0 : x.
static Value hardshrinkBody(OpBuilder &b, Location loc, ValueRange e,
                            const ElementwiseTypes &) {
  Value x = e[0], lambd = e[1];
  Value negLambd = arith::NegFOp::create(b, loc, lambd);
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x,
                                      negLambd);
  Value below =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, lambd);
  Value inside = arith::AndIOp::create(b, loc, above, below);
  return arith::SelectOp::create(b, loc, inside, constant(b, loc, x, 0), x);
}

/// threshold(x, t, v): x <= t ? v : x (NaN is not <= t, so it stays).
static Value thresholdBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &t) {
  Value x = e[0];
  Value atMost =
      isa<FloatType>(x.getType())
          ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x,
                                        e[1]))
          : Value(arith::CmpIOp::create(b, loc,
                                        t.isUnsigned ? arith::CmpIPredicate::ule
                                                     : arith::CmpIPredicate::sle,
                                        x, e[1]));
  return arith::SelectOp::create(b, loc, atMost, e[2], x);
}

void conversion::populateActivationPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  auto &tc = typeConverter;
  addElementwisePattern<aten::ReluOp>(tc, patterns, reluBody);
  addElementwisePattern<aten::Relu6Op>(tc, patterns, relu6Body);
  addElementwisePattern<aten::LeakyReluOp>(tc, patterns, leakyReluBody);
  addElementwisePattern<aten::EluOp>(tc, patterns, eluBody);
  addElementwisePattern<aten::SeluOp>(tc, patterns, seluBody);
  addElementwisePattern<aten::SiluOp>(tc, patterns, siluBody);
  addElementwisePattern<aten::HardsigmoidOp>(tc, patterns, hardsigmoidBody);
  addElementwisePattern<aten::HardswishOp>(tc, patterns, hardswishBody);
  addElementwisePattern<aten::HardtanhOp>(tc, patterns, clampBody);
  addElementwisePattern<aten::SoftplusOp>(tc, patterns, softplusBody);
  addElementwisePattern<aten::LogSigmoidOp>(tc, patterns, logSigmoidBody);
  addElementwisePattern<aten::ClampOp>(tc, patterns, clampBody);
  addElementwisePattern<aten::ClampMinOp>(tc, patterns, clampBody);
  addElementwisePattern<aten::ClampMaxOp>(tc, patterns, clampMaxBody);
  addElementwisePattern<aten::ClampTensorOp>(tc, patterns, clampTensorBody);
  addElementwisePattern<aten::ClampMinTensorOp>(tc, patterns,
                                                clampMinTensorBody);
  addElementwisePattern<aten::ClampMaxTensorOp>(tc, patterns,
                                                clampMaxTensorBody);
  addElementwisePattern<aten::MishOp>(tc, patterns, mishBody);
  addElementwisePattern<aten::CeluOp>(tc, patterns, celuBody);
  addElementwisePattern<aten::SoftshrinkOp>(tc, patterns, softshrinkBody);
  addElementwisePattern<aten::HardshrinkOp>(tc, patterns, hardshrinkBody);
  addElementwisePattern<aten::ThresholdOp>(tc, patterns, thresholdBody);
  patterns.add<GeluPattern, PreluPattern>(tc, patterns.getContext());
}
