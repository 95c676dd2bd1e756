//===- UnaryMath.cpp - convert-aten-to-linalg: pointwise math -------------===//
//
// exp/log/sqrt, trig with its inverse and hyperbolic forms, erf/erfc/exp2/
// sinc/logit/sigmoid, deg2rad/rad2deg, frac, nan_to_num, rounding (floor,
// ceil, round with and without decimals, trunc), sign/sgn, the isnan/isinf/
// isfinite/isposinf/isneginf/signbit/isreal tests and the real-dtype
// identities (positive, resolve_neg/conj, conj_physical), as broadcasting linalg.generics on the math dialect. Integer inputs of the
// float functions are computed in the float result dtype (torch's
// int-to-float promotion is on the result type); rounding an integer is the
// identity.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

/// A body applying the math op `MathOp` to a float element.
template <typename MathOp>
static Value mathBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  return MathOp::create(b, loc, e[0]);
}

/// A rounding op: the identity on integers.
template <typename MathOp>
static Value roundingBody(OpBuilder &b, Location loc, ValueRange e,
                          const ElementwiseTypes &) {
  if (!isa<FloatType>(e[0].getType()))
    return e[0];
  return MathOp::create(b, loc, e[0]);
}

static Value sigmoidBody(OpBuilder &b, Location loc, ValueRange e,
                         const ElementwiseTypes &) {
  Value x = e[0];
  Value one = createScalarConstant(b, loc, x.getType(), 1);
  Value expNeg = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, expNeg));
}

/// (0 < x) - (x < 0), as torch computes it: sign(NaN) is 0.
static Value signBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &t) {
  Value x = e[0];
  Type type = x.getType();
  if (type.isInteger(1))
    return x;
  Value zero = createScalarConstant(b, loc, type, 0);
  Value one = createScalarConstant(b, loc, type, 1);
  Value minusOne = createScalarConstant(b, loc, type, -1);
  Value positive, negative;
  if (isa<FloatType>(type)) {
    positive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    negative =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  } else {
    positive = arith::CmpIOp::create(b, loc,
                                     t.isUnsigned ? arith::CmpIPredicate::ne
                                                  : arith::CmpIPredicate::sgt,
                                     x, zero);
    negative =
        t.isUnsigned
            ? Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(false)))
            : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x,
                                          zero));
  }
  Value signOrZero = arith::SelectOp::create(b, loc, negative, minusOne, zero);
  return arith::SelectOp::create(b, loc, positive, one, signOrZero);
}

/// The element itself: positive, and the conjugation and negation
/// resolutions, which real dtypes do not see.
static Value identityBody(OpBuilder &, Location, ValueRange e,
                          const ElementwiseTypes &) {
  return e[0];
}

/// x * factor (deg2rad, rad2deg).
template <int Numerator, int Denominator>
static Value scaleByPiBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &) {
  double factor = Numerator == 1 ? M_PI / Denominator : Numerator / M_PI;
  return arith::MulFOp::create(
      b, loc, e[0], createScalarConstant(b, loc, e[0].getType(), factor));
}

/// sinc(x) = sin(pi x) / (pi x), and 1 at 0.
static Value sincBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  Value x = e[0];
  Type type = x.getType();
  Value piX = arith::MulFOp::create(
      b, loc, x, createScalarConstant(b, loc, type, M_PI));
  Value ratio =
      arith::DivFOp::create(b, loc, math::SinOp::create(b, loc, piX), piX);
  Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                       createScalarConstant(b, loc, type, 0));
  return arith::SelectOp::create(b, loc, isZero,
                                 createScalarConstant(b, loc, type, 1), ratio);
}

/// logit(x, eps) = log(z / (1 - z)), z = x clamped to [eps, 1 - eps] when
/// eps is given.
static Value logitBody(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &) {
  Value x = e[0];
  Type type = x.getType();
  Value one = createScalarConstant(b, loc, type, 1);
  if (e.size() > 1 && e[1]) {
    Value lo = e[1];
    Value hi = arith::SubFOp::create(b, loc, one, lo);
    Value below =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, lo);
    Value above =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, hi);
    x = arith::SelectOp::create(b, loc, below, lo,
                                arith::SelectOp::create(b, loc, above, hi, x));
  }
  return math::LogOp::create(
      b, loc,
      arith::DivFOp::create(b, loc, x, arith::SubFOp::create(b, loc, one, x)));
}

/// frac(x) = x - trunc(x).
static Value fracBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  return arith::SubFOp::create(b, loc, e[0],
                               math::TruncOp::create(b, loc, e[0]));
}

/// nan_to_num(x, nan, posinf, neginf): NaN and the infinities replaced,
/// by 0 and the dtype's largest and lowest finite values by default.
static Value nanToNumBody(OpBuilder &b, Location loc, ValueRange e,
                          const ElementwiseTypes &) {
  Value x = e[0];
  auto type = dyn_cast<FloatType>(x.getType());
  if (!type)
    return x;
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  auto constantOf = [&](const APFloat &value) -> Value {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getFloatAttr(type, value));
  };
  Value nan = e[1] ? e[1] : createScalarConstant(b, loc, type, 0);
  Value posinf = e[2] ? e[2] : constantOf(APFloat::getLargest(semantics));
  Value neginf =
      e[3] ? e[3] : constantOf(APFloat::getLargest(semantics, true));
  Value inf =
      constantOf(APFloat::getInf(semantics, /*Negative=*/false));
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value isPosInf =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, inf);
  Value isNegInf = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OEQ, x, arith::NegFOp::create(b, loc, inf));
  Value result = arith::SelectOp::create(b, loc, isNegInf, neginf, x);
  result = arith::SelectOp::create(b, loc, isPosInf, posinf, result);
  return arith::SelectOp::create(b, loc, isNaN, nan, result);
}

namespace {
/// round.decimals: nearbyint(x * 10^d) / 10^d (x / 10^-d for negative d), as
/// torch computes it.
class RoundDecimalsPattern : public OpConversionPattern<aten::RoundDecimalsOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::RoundDecimalsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> decimals = matchConstantInt(op.getDecimals());
    if (!decimals)
      return rewriter.notifyMatchFailure(op, "decimals is not a constant");
    FailureOr<ElementwiseTypes> types =
        getResultComputeTypes(rewriter, op, *getTypeConverter());
    if (failed(types))
      return failure();
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getSelf(), op.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange e) -> Value {
          Value x = e[0];
          if (!isa<FloatType>(x.getType()))
            return x;
          bool negative = *decimals < 0;
          double scale = std::pow(10.0, negative ? -*decimals : *decimals);
          Value factor = createScalarConstant(b, loc, x.getType(), scale);
          if (negative) {
            Value scaled = arith::DivFOp::create(b, loc, x, factor);
            return arith::MulFOp::create(
                b, loc, math::RoundEvenOp::create(b, loc, scaled), factor);
          }
          Value scaled = arith::MulFOp::create(b, loc, x, factor);
          return arith::DivFOp::create(
              b, loc, math::RoundEvenOp::create(b, loc, scaled), factor);
        });
  }
};

/// isnan/isinf/isfinite: computed in the input's dtype, producing bool.
enum class FloatClass { NaN, Inf, Finite, PosInf, NegInf, SignBit, Real };
template <typename OpTy>
class FloatClassPattern : public ConfiguredPattern<OpTy, FloatClass> {
public:
  using ConfiguredPattern<OpTy, FloatClass>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types = getPromotedComputeTypes(
        rewriter, op, *this->getTypeConverter(), op.getSelf());
    if (failed(types))
      return failure();
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getSelf(), op.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange e) -> Value {
          FloatClass test = this->config;
          Value x = e[0];
          Type type = x.getType();
          if (test == FloatClass::Real)
            return arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
          if (test == FloatClass::SignBit && !isa<FloatType>(type)) {
            if (types->isUnsigned || type.isInteger(1))
              return arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
            return arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, x,
                createScalarConstant(b, loc, type, 0));
          }
          if (!isa<FloatType>(type))
            return arith::ConstantOp::create(
                b, loc, b.getBoolAttr(test == FloatClass::Finite));
          if (test == FloatClass::SignBit) {
            // The sign bit itself, so that -0.0 and -NaN count.
            auto intType = b.getIntegerType(type.getIntOrFloatBitWidth());
            Value bits = arith::BitcastOp::create(b, loc, intType, x);
            return arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, bits,
                arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, 0)));
          }
          if (test == FloatClass::PosInf || test == FloatClass::NegInf) {
            Value inf = createScalarConstant(
                b, loc, type,
                (test == FloatClass::PosInf ? 1 : -1) *
                    std::numeric_limits<double>::infinity());
            return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                         inf);
          }
          if (test == FloatClass::NaN)
            return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x,
                                         x);
          Value inf = createScalarConstant(
              b, loc, type, std::numeric_limits<double>::infinity());
          Value magnitude = math::AbsFOp::create(b, loc, x);
          // ONE is false for NaN, which is neither finite nor infinite.
          return arith::CmpFOp::create(b, loc,
                                       test == FloatClass::Inf
                                           ? arith::CmpFPredicate::OEQ
                                           : arith::CmpFPredicate::ONE,
                                       magnitude, inf);
        });
  }
};
} // namespace

void conversion::populateUnaryMathPatterns(const TypeConverter &typeConverter,
                                           RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  auto &tc = typeConverter;
  addElementwisePattern<aten::ExpOp>(tc, patterns, mathBody<math::ExpOp>);
  addElementwisePattern<aten::LogOp>(tc, patterns, mathBody<math::LogOp>);
  addElementwisePattern<aten::Log2Op>(tc, patterns, mathBody<math::Log2Op>);
  addElementwisePattern<aten::Log10Op>(tc, patterns, mathBody<math::Log10Op>);
  addElementwisePattern<aten::Log1pOp>(tc, patterns, mathBody<math::Log1pOp>);
  addElementwisePattern<aten::Expm1Op>(tc, patterns, mathBody<math::ExpM1Op>);
  addElementwisePattern<aten::SqrtOp>(tc, patterns, mathBody<math::SqrtOp>);
  addElementwisePattern<aten::RsqrtOp>(tc, patterns, mathBody<math::RsqrtOp>);
  addElementwisePattern<aten::SinOp>(tc, patterns, mathBody<math::SinOp>);
  addElementwisePattern<aten::CosOp>(tc, patterns, mathBody<math::CosOp>);
  addElementwisePattern<aten::AtanOp>(tc, patterns, mathBody<math::AtanOp>);
  addElementwisePattern<aten::TanhOp>(tc, patterns, mathBody<math::TanhOp>);
  addElementwisePattern<aten::ErfOp>(tc, patterns, mathBody<math::ErfOp>);
  addElementwisePattern<aten::SigmoidOp>(tc, patterns, sigmoidBody);
  addElementwisePattern<aten::FloorOp>(tc, patterns,
                                       roundingBody<math::FloorOp>);
  addElementwisePattern<aten::CeilOp>(tc, patterns, roundingBody<math::CeilOp>);
  // torch rounds half to even (std::nearbyint).
  addElementwisePattern<aten::RoundOp>(tc, patterns,
                                       roundingBody<math::RoundEvenOp>);
  addElementwisePattern<aten::TruncOp>(tc, patterns,
                                       roundingBody<math::TruncOp>);
  addElementwisePattern<aten::SignOp>(tc, patterns, signBody,
                                      BoolCompute::AsI1);
  patterns.add<RoundDecimalsPattern>(tc, context);
  using IsNaN = FloatClassPattern<aten::IsnanOp>;
  using IsInf = FloatClassPattern<aten::IsinfOp>;
  using IsFinite = FloatClassPattern<aten::IsfiniteOp>;
  patterns.add<IsNaN>(tc, context, FloatClass::NaN);
  patterns.add<IsInf>(tc, context, FloatClass::Inf);
  patterns.add<IsFinite>(tc, context, FloatClass::Finite);
  patterns.add<FloatClassPattern<aten::IsposinfOp>>(tc, context,
                                                    FloatClass::PosInf);
  patterns.add<FloatClassPattern<aten::IsneginfOp>>(tc, context,
                                                    FloatClass::NegInf);
  patterns.add<FloatClassPattern<aten::SignbitOp>>(tc, context,
                                                   FloatClass::SignBit);
  patterns.add<FloatClassPattern<aten::IsrealOp>>(tc, context,
                                                  FloatClass::Real);
  addElementwisePattern<aten::AcosOp>(tc, patterns, mathBody<math::AcosOp>);
  addElementwisePattern<aten::AsinOp>(tc, patterns, mathBody<math::AsinOp>);
  addElementwisePattern<aten::AcoshOp>(tc, patterns, mathBody<math::AcoshOp>);
  addElementwisePattern<aten::AsinhOp>(tc, patterns, mathBody<math::AsinhOp>);
  addElementwisePattern<aten::AtanhOp>(tc, patterns, mathBody<math::AtanhOp>);
  addElementwisePattern<aten::CoshOp>(tc, patterns, mathBody<math::CoshOp>);
  addElementwisePattern<aten::SinhOp>(tc, patterns, mathBody<math::SinhOp>);
  addElementwisePattern<aten::TanOp>(tc, patterns, mathBody<math::TanOp>);
  addElementwisePattern<aten::ErfcOp>(tc, patterns, mathBody<math::ErfcOp>);
  addElementwisePattern<aten::Exp2Op>(tc, patterns, mathBody<math::Exp2Op>);
  addElementwisePattern<aten::SincOp>(tc, patterns, sincBody);
  addElementwisePattern<aten::Deg2radOp>(tc, patterns, scaleByPiBody<1, 180>);
  addElementwisePattern<aten::Rad2degOp>(tc, patterns, scaleByPiBody<180, 1>);
  addElementwisePattern<aten::LogitOp>(tc, patterns, logitBody);
  addElementwisePattern<aten::FracOp>(tc, patterns, fracBody);
  addElementwisePattern<aten::NanToNumOp>(tc, patterns, nanToNumBody);
  addElementwisePattern<aten::SgnOp>(tc, patterns, signBody,
                                     BoolCompute::AsI1);
  addElementwisePattern<aten::PositiveOp>(tc, patterns, identityBody);
  addElementwisePattern<aten::ResolveNegOp>(tc, patterns, identityBody);
  addElementwisePattern<aten::ResolveConjOp>(tc, patterns, identityBody);
  addElementwisePattern<aten::ConjPhysicalOp>(tc, patterns, identityBody);
}
