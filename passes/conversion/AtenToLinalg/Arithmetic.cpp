//===- Arithmetic.cpp - convert-aten-to-linalg: arithmetic ----------------===//
//
// add/sub/rsub/mul/div (with alpha and rounding modes), floor_divide,
// remainder, fmod, pow, neg, abs, reciprocal, square, addcmul/addcdiv, lerp,
// maximum/minimum and atan2, each a broadcasting linalg.generic computing in
// the result dtype (f16 and bf16 in f32, bool in i8). Integer division and
// remainder by zero, which torch raises on, yield 0 instead of trapping, and
// so does the overflowing INT_MIN / -1. floor division and remainder round
// toward -inf as Python does.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

static Value isEqualTo(OpBuilder &b, Location loc, Value value, int64_t v) {
  Value constant = createScalarConstant(b, loc, value.getType(), v);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value,
                               constant);
}

/// `rhs` where it is safe to divide by, 1 where it is 0 (or -1 when signed,
/// since INT_MIN / -1 traps too); the callers patch those lanes.
static Value safeDivisor(OpBuilder &b, Location loc, Value rhs,
                         bool isUnsigned) {
  Value one = createScalarConstant(b, loc, rhs.getType(), 1);
  Value unsafe = isEqualTo(b, loc, rhs, 0);
  if (!isUnsigned)
    unsafe = arith::OrIOp::create(b, loc, unsafe, isEqualTo(b, loc, rhs, -1));
  return arith::SelectOp::create(b, loc, unsafe, one, rhs);
}

Value conversion::buildDiv(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::DivFOp::create(b, loc, lhs, rhs);
  Value zero = createScalarConstant(b, loc, lhs.getType(), 0);
  Value divisor = safeDivisor(b, loc, rhs, isUnsigned);
  Value quotient;
  if (isUnsigned) {
    quotient = arith::DivUIOp::create(b, loc, lhs, divisor);
  } else {
    quotient = arith::DivSIOp::create(b, loc, lhs, divisor);
    Value negated = arith::SubIOp::create(b, loc, zero, lhs);
    quotient = arith::SelectOp::create(b, loc, isEqualTo(b, loc, rhs, -1),
                                       negated, quotient);
  }
  return arith::SelectOp::create(b, loc, isEqualTo(b, loc, rhs, 0), zero,
                                 quotient);
}

//===----------------------------------------------------------------------===//
// Division with rounding, remainders, powers
//===----------------------------------------------------------------------===//

static Value cmpF(OpBuilder &b, Location loc, arith::CmpFPredicate predicate,
                  Value lhs, Value rhs) {
  return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
}

static Value cmpI(OpBuilder &b, Location loc, arith::CmpIPredicate predicate,
                  Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

/// Whether `a` and `b` (non-zero) have different signs.
static Value signsDiffer(OpBuilder &b, Location loc, Value a, Value c) {
  Type type = a.getType();
  if (isa<FloatType>(type)) {
    Value zero = createScalarConstant(b, loc, type, 0);
    return arith::XOrIOp::create(
        b, loc, cmpF(b, loc, arith::CmpFPredicate::OLT, a, zero),
        cmpF(b, loc, arith::CmpFPredicate::OLT, c, zero));
  }
  Value zero = createScalarConstant(b, loc, type, 0);
  return arith::XOrIOp::create(
      b, loc, cmpI(b, loc, arith::CmpIPredicate::slt, a, zero),
      cmpI(b, loc, arith::CmpIPredicate::slt, c, zero));
}

/// C's `%` (sign of the dividend); 0 for a zero divisor.
static Value buildFmod(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::RemFOp::create(b, loc, lhs, rhs);
  Value zero = createScalarConstant(b, loc, lhs.getType(), 0);
  Value divisor = safeDivisor(b, loc, rhs, isUnsigned);
  Value rem = isUnsigned ? Value(arith::RemUIOp::create(b, loc, lhs, divisor))
                         : Value(arith::RemSIOp::create(b, loc, lhs, divisor));
  // x % 1 and x % -1 are 0, which also covers the patched lanes.
  return arith::SelectOp::create(b, loc, isEqualTo(b, loc, divisor, 1), zero,
                                 rem);
}

/// Python's `%`: the sign of the divisor (torch.remainder).
static Value buildRemainder(OpBuilder &b, Location loc, Value lhs, Value rhs,
                            bool isUnsigned) {
  Value mod = buildFmod(b, loc, lhs, rhs, isUnsigned);
  if (isUnsigned)
    return mod;
  Type type = lhs.getType();
  Value zero = createScalarConstant(b, loc, type, 0);
  Value nonZero = isa<FloatType>(type)
                      ? cmpF(b, loc, arith::CmpFPredicate::UNE, mod, zero)
                      : cmpI(b, loc, arith::CmpIPredicate::ne, mod, zero);
  Value fix =
      arith::AndIOp::create(b, loc, nonZero, signsDiffer(b, loc, mod, rhs));
  return arith::SelectOp::create(b, loc, fix, buildAdd(b, loc, mod, rhs), mod);
}

/// Division rounded toward -inf, as Python's `//` and torch's div_floor.
static Value buildFloorDiv(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           bool isUnsigned) {
  Type type = lhs.getType();
  if (isa<FloatType>(type)) {
    // torch's div_floor_floating: exact when a/b is an integer up to
    // rounding, and a/b (inf or NaN) for a zero divisor.
    Value zero = createScalarConstant(b, loc, type, 0);
    Value one = createScalarConstant(b, loc, type, 1);
    Value half = createScalarConstant(b, loc, type, 0.5);
    Value mod = arith::RemFOp::create(b, loc, lhs, rhs);
    Value div = arith::DivFOp::create(
        b, loc, arith::SubFOp::create(b, loc, lhs, mod), rhs);
    Value adjust = arith::AndIOp::create(
        b, loc, cmpF(b, loc, arith::CmpFPredicate::UNE, mod, zero),
        signsDiffer(b, loc, rhs, mod));
    div = arith::SelectOp::create(b, loc, adjust,
                                  arith::SubFOp::create(b, loc, div, one), div);
    Value floored = math::FloorOp::create(b, loc, div);
    Value roundUp = cmpF(b, loc, arith::CmpFPredicate::OGT,
                         arith::SubFOp::create(b, loc, div, floored), half);
    floored = arith::SelectOp::create(
        b, loc, roundUp, arith::AddFOp::create(b, loc, floored, one), floored);
    Value trueDiv = arith::DivFOp::create(b, loc, lhs, rhs);
    Value signedZero = math::CopySignOp::create(b, loc, zero, trueDiv);
    Value result = arith::SelectOp::create(
        b, loc, cmpF(b, loc, arith::CmpFPredicate::UNE, div, zero), floored,
        signedZero);
    return arith::SelectOp::create(
        b, loc, cmpF(b, loc, arith::CmpFPredicate::OEQ, rhs, zero), trueDiv,
        result);
  }
  Value quotient = buildDiv(b, loc, lhs, rhs, isUnsigned);
  if (isUnsigned)
    return quotient;
  Value rem = buildFmod(b, loc, lhs, rhs, isUnsigned);
  Value zero = createScalarConstant(b, loc, type, 0);
  Value one = createScalarConstant(b, loc, type, 1);
  Value fix = arith::AndIOp::create(
      b, loc, cmpI(b, loc, arith::CmpIPredicate::ne, rem, zero),
      signsDiffer(b, loc, rem, rhs));
  return arith::SelectOp::create(
      b, loc, fix, arith::SubIOp::create(b, loc, quotient, one), quotient);
}

/// Division rounded toward zero (rounding_mode="trunc").
static Value buildTruncDiv(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           bool isUnsigned) {
  Value quotient = buildDiv(b, loc, lhs, rhs, isUnsigned);
  if (isa<FloatType>(quotient.getType()))
    return math::TruncOp::create(b, loc, quotient);
  return quotient;
}

/// An integer raised to an integer power by squaring; a negative exponent
/// (torch raises, except for bases 1 and -1) gives 1/base**-e truncated.
static Value buildIntegerPow(OpBuilder &b, Location loc, Value base,
                             Value exponent, bool isUnsigned) {
  Type type = base.getType();
  Value zero = createScalarConstant(b, loc, type, 0);
  Value one = createScalarConstant(b, loc, type, 1);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{type, type, type}, ValueRange{one, base, exponent},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value more = arith::CmpIOp::create(
            nb, nl,
            isUnsigned ? arith::CmpIPredicate::ne : arith::CmpIPredicate::sgt,
            args[2], zero);
        scf::ConditionOp::create(nb, nl, more, args);
      },
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value bit = arith::AndIOp::create(nb, nl, args[2], one);
        Value odd =
            arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ne, bit, zero);
        Value times = arith::MulIOp::create(nb, nl, args[0], args[1]);
        Value result = arith::SelectOp::create(nb, nl, odd, times, args[0]);
        Value square = arith::MulIOp::create(nb, nl, args[1], args[1]);
        Value rest = arith::ShRUIOp::create(nb, nl, args[2], one);
        scf::YieldOp::create(nb, nl, ValueRange{result, square, rest});
      });
  Value power = loop.getResult(0);
  if (isUnsigned)
    return power;
  // base**-e: 1 for base 1, +-1 for base -1, 0 otherwise.
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  Value oddExponent =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exponent, one), zero);
  Value minusOne = createScalarConstant(b, loc, type, -1);
  Value ofMinusOne =
      arith::SelectOp::create(b, loc, oddExponent, minusOne, one);
  Value reciprocal = arith::SelectOp::create(
      b, loc, isEqualTo(b, loc, base, 1), one,
      arith::SelectOp::create(b, loc, isEqualTo(b, loc, base, -1), ofMinusOne,
                              zero));
  return arith::SelectOp::create(b, loc, negative, reciprocal, power);
}

static Value buildPow(OpBuilder &b, Location loc, Value base, Value exponent,
                      bool isUnsigned) {
  if (isa<FloatType>(base.getType()))
    return math::PowFOp::create(b, loc, base, exponent);
  return buildIntegerPow(b, loc, base, exponent, isUnsigned);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// add/sub/rsub, Tensor and Scalar: `self + alpha * other` and its
/// variations. An alpha of 1 is not multiplied.
enum class AddSubKind { Add, Sub, Rsub };
template <typename OpTy>
class AddSubPattern : public ConfiguredPattern<OpTy, AddSubKind> {
public:
  using ConfiguredPattern<OpTy, AddSubKind>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types =
        getResultComputeTypes(rewriter, op, *this->getTypeConverter());
    if (failed(types))
      return failure();
    SmallVector<Value> converted{adaptor.getSelf(), adaptor.getOther()};
    SmallVector<Value> original{op.getSelf(), op.getOther()};
    std::optional<double> alpha = matchConstantFloat(op.getAlpha());
    bool scaled = !alpha || *alpha != 1.0;
    if (scaled) {
      converted.push_back(adaptor.getAlpha());
      original.push_back(op.getAlpha());
    }
    return replaceWithElementwise(
        rewriter, op, *types, converted, original,
        [&](OpBuilder &b, Location loc, ValueRange elements) -> Value {
          Value self = elements[0], other = elements[1];
          if (this->config == AddSubKind::Rsub)
            std::swap(self, other);
          if (scaled)
            other = buildMul(b, loc, other, elements[2]);
          if (this->config == AddSubKind::Add)
            return buildAdd(b, loc, self, other);
          return buildSub(b, loc, self, other);
        });
  }
};

/// div.Tensor_mode / div.Scalar_mode: rounding_mode None, "trunc" or
/// "floor".
template <typename OpTy>
class DivModePattern : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    enum class Mode { True, Trunc, Floor } mode = Mode::True;
    if (!isNone(op.getRoundingMode())) {
      std::optional<StringRef> name =
          matchConstantString(op.getRoundingMode());
      if (name == "trunc")
        mode = Mode::Trunc;
      else if (name == "floor")
        mode = Mode::Floor;
      else
        return rewriter.notifyMatchFailure(
            op, "rounding_mode is not a constant None, 'trunc' or 'floor'");
    }
    FailureOr<ElementwiseTypes> types =
        getResultComputeTypes(rewriter, op, *this->getTypeConverter());
    if (failed(types))
      return failure();
    bool isUnsigned = types->isUnsigned;
    return replaceWithElementwise(
        rewriter, op, *types, {adaptor.getSelf(), adaptor.getOther()},
        {op.getSelf(), op.getOther()},
        [&](OpBuilder &b, Location loc, ValueRange elements) -> Value {
          switch (mode) {
          case Mode::True:
            return buildDiv(b, loc, elements[0], elements[1], isUnsigned);
          case Mode::Trunc:
            return buildTruncDiv(b, loc, elements[0], elements[1], isUnsigned);
          case Mode::Floor:
            return buildFloorDiv(b, loc, elements[0], elements[1], isUnsigned);
          }
          llvm_unreachable("unknown rounding mode");
        });
  }
};

/// pow.Tensor_Scalar: the exponents torch's kernel special-cases (2, 3, 0.5,
/// -0.5, -1, -2) are computed as it does, so results match it bit for bit.
class PowTensorScalarPattern
    : public OpConversionPattern<aten::PowTensorScalarOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::PowTensorScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types =
        getResultComputeTypes(rewriter, op, *getTypeConverter());
    if (failed(types))
      return failure();
    std::optional<double> exponent = matchConstantFloat(op.getExponent());
    bool isUnsigned = types->isUnsigned;
    if (!types->isFloat() || !exponent ||
        !llvm::is_contained({2.0, 3.0, 0.5, -0.5, -1.0, -2.0}, *exponent))
      return replaceWithElementwise(
          rewriter, op, *types, adaptor.getOperands(), op->getOperands(),
          [&](OpBuilder &b, Location loc, ValueRange elements) {
            return buildPow(b, loc, elements[0], elements[1], isUnsigned);
          });
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getSelf(), op.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange elements) -> Value {
          Value x = elements[0];
          if (*exponent == 2)
            return buildMul(b, loc, x, x);
          if (*exponent == 3)
            return buildMul(b, loc, buildMul(b, loc, x, x), x);
          if (*exponent == 0.5)
            return math::SqrtOp::create(b, loc, x);
          if (*exponent == -0.5)
            return math::RsqrtOp::create(b, loc, x);
          Value one = createScalarConstant(b, loc, x.getType(), 1);
          if (*exponent == -1)
            return arith::DivFOp::create(b, loc, one, x);
          return arith::DivFOp::create(b, loc, one, buildMul(b, loc, x, x));
        });
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Bodies of the ops lowered by ElementwiseOpPattern
//===----------------------------------------------------------------------===//

static Value mulBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &) {
  return buildMul(b, loc, e[0], e[1]);
}

static Value divBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &t) {
  return buildDiv(b, loc, e[0], e[1], t.isUnsigned);
}

static Value floorDivideBody(OpBuilder &b, Location loc, ValueRange e,
                             const ElementwiseTypes &t) {
  return buildFloorDiv(b, loc, e[0], e[1], t.isUnsigned);
}

static Value remainderBody(OpBuilder &b, Location loc, ValueRange e,
                           const ElementwiseTypes &t) {
  return buildRemainder(b, loc, e[0], e[1], t.isUnsigned);
}

static Value fmodBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &t) {
  return buildFmod(b, loc, e[0], e[1], t.isUnsigned);
}

static Value powBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &t) {
  return buildPow(b, loc, e[0], e[1], t.isUnsigned);
}

static Value negBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &) {
  if (isa<FloatType>(e[0].getType()))
    return arith::NegFOp::create(b, loc, e[0]);
  return buildSub(b, loc, createScalarConstant(b, loc, e[0].getType(), 0),
                  e[0]);
}

static Value absBody(OpBuilder &b, Location loc, ValueRange e,
                     const ElementwiseTypes &t) {
  if (isa<FloatType>(e[0].getType()))
    return math::AbsFOp::create(b, loc, e[0]);
  if (t.isUnsigned)
    return e[0];
  return math::AbsIOp::create(b, loc, e[0]);
}

static Value reciprocalBody(OpBuilder &b, Location loc, ValueRange e,
                            const ElementwiseTypes &t) {
  Value one = createScalarConstant(b, loc, e[0].getType(), 1);
  return buildDiv(b, loc, one, e[0], t.isUnsigned);
}

static Value squareBody(OpBuilder &b, Location loc, ValueRange e,
                        const ElementwiseTypes &) {
  return buildMul(b, loc, e[0], e[0]);
}

/// addcmul(self, tensor1, tensor2, value): self + value * tensor1 * tensor2.
static Value addcmulBody(OpBuilder &b, Location loc, ValueRange e,
                         const ElementwiseTypes &) {
  Value product = buildMul(b, loc, buildMul(b, loc, e[3], e[1]), e[2]);
  return buildAdd(b, loc, e[0], product);
}

/// addcdiv(self, tensor1, tensor2, value): self + value * tensor1 / tensor2.
static Value addcdivBody(OpBuilder &b, Location loc, ValueRange e,
                         const ElementwiseTypes &t) {
  Value quotient = buildDiv(b, loc, e[1], e[2], t.isUnsigned);
  return buildAdd(b, loc, e[0], buildMul(b, loc, e[3], quotient));
}

/// torch's lerp: from the nearer end, so that weight 1 gives `end` exactly.
static Value lerpBody(OpBuilder &b, Location loc, ValueRange e,
                      const ElementwiseTypes &) {
  Value self = e[0], end = e[1], weight = e[2];
  Type type = self.getType();
  Value diff = buildSub(b, loc, end, self);
  if (!isa<FloatType>(type))
    return buildAdd(b, loc, self, buildMul(b, loc, weight, diff));
  Value one = createScalarConstant(b, loc, type, 1);
  Value half = createScalarConstant(b, loc, type, 0.5);
  Value small = cmpF(b, loc, arith::CmpFPredicate::OLT,
                     math::AbsFOp::create(b, loc, weight), half);
  Value fromSelf = buildAdd(b, loc, self, buildMul(b, loc, weight, diff));
  Value fromEnd = buildSub(
      b, loc, end, buildMul(b, loc, diff, buildSub(b, loc, one, weight)));
  return arith::SelectOp::create(b, loc, small, fromSelf, fromEnd);
}

static Value maximumBody(OpBuilder &b, Location loc, ValueRange e,
                         const ElementwiseTypes &t) {
  return buildMax(b, loc, e[0], e[1], t.isUnsigned);
}

static Value minimumBody(OpBuilder &b, Location loc, ValueRange e,
                         const ElementwiseTypes &t) {
  return buildMin(b, loc, e[0], e[1], t.isUnsigned);
}

static Value atan2Body(OpBuilder &b, Location loc, ValueRange e,
                       const ElementwiseTypes &) {
  return math::Atan2Op::create(b, loc, e[0], e[1]);
}

void conversion::populateArithmeticPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  using AddTensor = AddSubPattern<aten::AddTensorOp>;
  using AddScalar = AddSubPattern<aten::AddScalarOp>;
  using SubTensor = AddSubPattern<aten::SubTensorOp>;
  using SubScalar = AddSubPattern<aten::SubScalarOp>;
  using RsubTensor = AddSubPattern<aten::RsubTensorOp>;
  using RsubScalar = AddSubPattern<aten::RsubScalarOp>;
  patterns.add<AddTensor>(typeConverter, context, AddSubKind::Add);
  patterns.add<AddScalar>(typeConverter, context, AddSubKind::Add);
  patterns.add<SubTensor>(typeConverter, context, AddSubKind::Sub);
  patterns.add<SubScalar>(typeConverter, context, AddSubKind::Sub);
  patterns.add<RsubTensor>(typeConverter, context, AddSubKind::Rsub);
  patterns.add<RsubScalar>(typeConverter, context, AddSubKind::Rsub);
  patterns.add<DivModePattern<aten::DivTensorModeOp>,
               DivModePattern<aten::DivScalarModeOp>, PowTensorScalarPattern>(
      typeConverter, context);

  addElementwisePattern<aten::MulTensorOp>(typeConverter, patterns, mulBody);
  addElementwisePattern<aten::MulScalarOp>(typeConverter, patterns, mulBody);
  addElementwisePattern<aten::DivTensorOp>(typeConverter, patterns, divBody);
  addElementwisePattern<aten::DivScalarOp>(typeConverter, patterns, divBody);
  addElementwisePattern<aten::FloorDivideOp>(typeConverter, patterns,
                                             floorDivideBody);
  addElementwisePattern<aten::FloorDivideScalarOp>(typeConverter, patterns,
                                                   floorDivideBody);
  addElementwisePattern<aten::RemainderTensorOp>(typeConverter, patterns,
                                                 remainderBody);
  addElementwisePattern<aten::RemainderScalarOp>(typeConverter, patterns,
                                                 remainderBody);
  addElementwisePattern<aten::FmodTensorOp>(typeConverter, patterns, fmodBody);
  addElementwisePattern<aten::FmodScalarOp>(typeConverter, patterns, fmodBody);
  addElementwisePattern<aten::PowTensorTensorOp>(typeConverter, patterns,
                                                 powBody);
  addElementwisePattern<aten::PowScalarOp>(typeConverter, patterns, powBody);
  addElementwisePattern<aten::NegOp>(typeConverter, patterns, negBody);
  addElementwisePattern<aten::AbsOp>(typeConverter, patterns, absBody);
  addElementwisePattern<aten::ReciprocalOp>(typeConverter, patterns,
                                            reciprocalBody);
  addElementwisePattern<aten::SquareOp>(typeConverter, patterns, squareBody);
  addElementwisePattern<aten::AddcmulOp>(typeConverter, patterns, addcmulBody);
  addElementwisePattern<aten::AddcdivOp>(typeConverter, patterns, addcdivBody);
  addElementwisePattern<aten::LerpScalarOp>(typeConverter, patterns, lerpBody);
  addElementwisePattern<aten::LerpTensorOp>(typeConverter, patterns, lerpBody);
  addElementwisePattern<aten::MaximumOp>(typeConverter, patterns, maximumBody);
  addElementwisePattern<aten::MinimumOp>(typeConverter, patterns, minimumBody);
  addElementwisePattern<aten::MaxOtherOp>(typeConverter, patterns, maximumBody);
  addElementwisePattern<aten::MinOtherOp>(typeConverter, patterns, minimumBody);
  addElementwisePattern<aten::Atan2Op>(typeConverter, patterns, atan2Body);
}
