//===- BinaryMath.cpp - convert-aten-to-linalg: two-operand math ----------===//
//
// xlogy, logaddexp/logaddexp2, hypot, copysign, fmin/fmax, heaviside, ldexp,
// float_power and isclose as broadcasting linalg.generics, each with torch's CPU
// formula and its NaN behaviour (fmin/fmax ignore a NaN operand; xlogy is
// 0 where x is 0 unless y is NaN). The float results compute in the result
// dtype, which refinement has already promoted (float64 for float_power).
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

static Value floatConstant(OpBuilder &b, Location loc, Value like, double v) {
  return createScalarConstant(b, loc, like.getType(), v);
}

static Value isNaN(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}

/// xlogy(x, y): NaN if y is NaN, else 0 where x is 0, else x * log(y).
static Value xlogyBody(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &) {
  Value x = e[0], y = e[1];
  Value product =
      arith::MulFOp::create(b, loc, x, math::LogOp::create(b, loc, y));
  Value xIsZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                        floatConstant(b, loc, x, 0));
  Value result = arith::SelectOp::create(
      b, loc, xIsZero, floatConstant(b, loc, x, 0), product);
  return arith::SelectOp::create(b, loc, isNaN(b, loc, y), y, result);
}

/// logaddexp(a, b) = m + log1p(exp(-|a - b|)), m = max(a, b); equal
/// infinities give themselves. Base 2 with exp2 and a 1/ln 2 factor.
template <bool Base2>
static Value logaddexpBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &) {
  Value x = e[0], y = e[1];
  Value m = arith::MaximumFOp::create(b, loc, x, y);
  Value negDistance = arith::NegFOp::create(
      b, loc, math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, y)));
  Value tail;
  if (Base2)
    tail = arith::MulFOp::create(
        b, loc,
        math::Log1pOp::create(b, loc, math::Exp2Op::create(b, loc, negDistance)),
        floatConstant(b, loc, x, 1.0 / M_LN2));
  else
    tail = math::Log1pOp::create(b, loc,
                                 math::ExpOp::create(b, loc, negDistance));
  Value sum = arith::AddFOp::create(b, loc, m, tail);
  Value inf = floatConstant(b, loc, x, std::numeric_limits<double>::infinity());
  Value xIsInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       math::AbsFOp::create(b, loc, x), inf);
  Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  return arith::SelectOp::create(
      b, loc, arith::AndIOp::create(b, loc, xIsInf, same), x, sum);
}

/// hypot(a, b) = sqrt(a^2 + b^2).
static Value hypotBody(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &) {
  Value squares =
      arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, e[0], e[0]),
                            arith::MulFOp::create(b, loc, e[1], e[1]));
  return math::SqrtOp::create(b, loc, squares);
}

static Value copysignBody(OpBuilder &b, Location loc, ValueRange e,
                          const ElementwiseTypes &) {
  return math::CopySignOp::create(b, loc, e[0], e[1]);
}

/// fmin/fmax: the non-NaN operand when one is NaN (C's fmin/fmax).
template <bool Max>
static Value fminmaxBody(OpBuilder &b, Location loc, ValueRange e,
                         const ElementwiseTypes &t) {
  Value x = e[0], y = e[1];
  if (isa<FloatType>(x.getType()))
    return Max ? Value(arith::MaxNumFOp::create(b, loc, x, y))
               : Value(arith::MinNumFOp::create(b, loc, x, y));
  if (t.isUnsigned || x.getType().isInteger(1))
    return Max ? Value(arith::MaxUIOp::create(b, loc, x, y))
               : Value(arith::MinUIOp::create(b, loc, x, y));
  return Max ? Value(arith::MaxSIOp::create(b, loc, x, y))
             : Value(arith::MinSIOp::create(b, loc, x, y));
}

/// heaviside(x, values): values where x is 0, else x > 0.
static Value heavisideBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &t) {
  Value x = e[0], values = e[1];
  Type type = x.getType();
  Value zero = createScalarConstant(b, loc, type, 0);
  Value one = createScalarConstant(b, loc, type, 1);
  Value isZero, isPositive;
  if (isa<FloatType>(type)) {
    isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, zero);
    isPositive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
  } else {
    isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, zero);
    isPositive = arith::CmpIOp::create(
        b, loc,
        t.isUnsigned || type.isInteger(1) ? arith::CmpIPredicate::ugt
                                          : arith::CmpIPredicate::sgt,
        x, zero);
  }
  Value step = arith::SelectOp::create(b, loc, isPositive, one, zero);
  return arith::SelectOp::create(b, loc, isZero, values, step);
}

/// ldexp(x, e) = x * 2^e.
static Value ldexpBody(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &) {
  return arith::MulFOp::create(b, loc, e[0],
                               math::Exp2Op::create(b, loc, e[1]));
}

static Value powBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &) {
  return math::PowFOp::create(b, loc, e[0], e[1]);
}

namespace {
/// isclose(a, b, rtol, atol, equal_nan): a == b, or both NaN when
/// equal_nan, or a finite |a - b| <= atol + |rtol * b|; computed in the
/// operands' promoted float dtype.
struct IsclosePattern : OpConversionPattern<aten::IscloseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::IscloseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<bool> equalNaN = matchConstantBool(op.getEqualNan());
    if (!equalNaN)
      return rewriter.notifyMatchFailure(op, "equal_nan is not a constant");
    FailureOr<ElementwiseTypes> types = getPromotedComputeTypes(
        rewriter, op, *getTypeConverter(), {op.getSelf(), op.getOther()});
    if (failed(types))
      return failure();
    if (!types->isFloat())
      return rewriter.notifyMatchFailure(op, "isclose of integers");
    SmallVector<Value> converted = {adaptor.getSelf(), adaptor.getOther(),
                                    adaptor.getRtol(), adaptor.getAtol()};
    SmallVector<Value> original = {op.getSelf(), op.getOther(), op.getRtol(),
                                   op.getAtol()};
    return replaceWithElementwise(
        rewriter, op, *types, converted, original,
        [&](OpBuilder &b, Location loc, ValueRange e) -> Value {
          Value x = e[0], y = e[1], rtol = e[2], atol = e[3];
          Value close =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
          if (*equalNaN)
            close = arith::OrIOp::create(
                b, loc, close,
                arith::AndIOp::create(b, loc, isNaN(b, loc, x),
                                      isNaN(b, loc, y)));
          Value error =
              math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, y));
          Value allowed = arith::AddFOp::create(
              b, loc, atol,
              math::AbsFOp::create(b, loc,
                                   arith::MulFOp::create(b, loc, rtol, y)));
          Value inf =
              floatConstant(b, loc, x, std::numeric_limits<double>::infinity());
          // ONE (ordered, not equal) is false for a NaN error too.
          Value finite =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, error, inf);
          Value within = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE,
                                               error, allowed);
          return arith::OrIOp::create(
              b, loc, close, arith::AndIOp::create(b, loc, finite, within));
        });
  }
};
} // namespace

void conversion::populateBinaryMathPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  auto &tc = typeConverter;
  addElementwisePattern<aten::XlogyTensorOp>(tc, patterns, xlogyBody);
  addElementwisePattern<aten::XlogyScalarOtherOp>(tc, patterns, xlogyBody);
  addElementwisePattern<aten::LogaddexpOp>(tc, patterns, logaddexpBody<false>);
  addElementwisePattern<aten::Logaddexp2Op>(tc, patterns, logaddexpBody<true>);
  addElementwisePattern<aten::HypotOp>(tc, patterns, hypotBody);
  addElementwisePattern<aten::CopysignTensorOp>(tc, patterns, copysignBody);
  addElementwisePattern<aten::CopysignScalarOp>(tc, patterns, copysignBody);
  addElementwisePattern<aten::FminOp>(tc, patterns, fminmaxBody<false>);
  addElementwisePattern<aten::FmaxOp>(tc, patterns, fminmaxBody<true>);
  addElementwisePattern<aten::HeavisideOp>(tc, patterns, heavisideBody,
                                           BoolCompute::AsI1);
  addElementwisePattern<aten::LdexpTensorOp>(tc, patterns, ldexpBody);
  addElementwisePattern<aten::FloatPowerTensorTensorOp>(tc, patterns, powBody);
  addElementwisePattern<aten::FloatPowerTensorScalarOp>(tc, patterns, powBody);
  patterns.add<IsclosePattern>(tc, patterns.getContext());
}
