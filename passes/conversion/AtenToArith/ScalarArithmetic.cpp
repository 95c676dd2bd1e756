//===- ScalarArithmetic.cpp - convert-aten-to-arith: scalar arithmetic ----===//
//
// TorchScript's int/float arithmetic, math functions and scalar casts as
// arith/math (and one scf.while for integer powers), emitting the rules
// tsir-runtime/ScalarSemantics.h defines for the folder and the
// interpreter too: ints wrap, floor division and modulo round toward
// negative infinity (`%` is torch's `(b + a % b) % b`), `int / int` is a
// float, float to int truncates toward zero and gives INT64_MIN outside
// int64, float division by zero gives IEEE's inf/nan.
//
// Where torch raises (a zero divisor, a negative integer power, floor/ceil
// outside int64) the lowered code cannot: it gives 0 (INT64_MIN for the
// conversions) instead, so a bad input never traps the process (x86's idiv
// traps on a zero divisor and on INT64_MIN / -1).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "../Common/Utils.h"
#include "tsir-runtime/ScalarSemantics.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace tsir;
using tsir::conversion::castScalar;

bool tsir::conversion::isBuiltinScalarType(Type type) {
  return type.isInteger(64) || type.isF64() || type.isInteger(1);
}

using tsir::scalar::BinaryOp;

namespace {

enum class UnaryKind { Neg, Sqrt, Exp, Log, Floor, Ceil, Round, Cast };

} // namespace

static Value intConstant(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

/// Python's floor division and torch's modulo of two i64s. A zero divisor
/// gives 0 for both, and a divisor of -1 is taken apart so that
/// INT64_MIN // -1 wraps to INT64_MIN as the other int ops do, rather than
/// trapping.
static std::pair<Value, Value> floorDivRem(OpBuilder &b, Location loc, Value a,
                                           Value d) {
  Type i64 = a.getType();
  Value zero = intConstant(b, loc, i64, 0);
  Value one = intConstant(b, loc, i64, 1);
  Value minusOne = intConstant(b, loc, i64, -1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, zero);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, minusOne);
  Value special = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  Value safe = arith::SelectOp::create(b, loc, special, one, d);
  Value quotient = arith::DivSIOp::create(b, loc, a, safe);
  Value remainder = arith::RemSIOp::create(b, loc, a, safe);
  // C truncates toward zero; Python floors: step down when the remainder
  // is non-zero and its sign differs from the divisor's.
  Value nonZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, remainder, zero);
  Value signs = arith::XOrIOp::create(b, loc, remainder, d);
  Value signsDiffer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, signs, zero);
  Value adjust = arith::AndIOp::create(b, loc, nonZero, signsDiffer);
  Value floorQuotient = arith::SelectOp::create(
      b, loc, adjust, arith::SubIOp::create(b, loc, quotient, one), quotient);
  Value negated = arith::SubIOp::create(b, loc, zero, a);
  floorQuotient =
      arith::SelectOp::create(b, loc, isMinusOne, negated, floorQuotient);
  floorQuotient = arith::SelectOp::create(b, loc, isZero, zero, floorQuotient);
  // torch's remainder is (b + a % b) % b in wrapping C arithmetic, which is
  // Python's modulo except where b + a % b overflows; torch is the oracle.
  // With `safe` = 1 (b = 0 or -1) both remainders are 0.
  Value shifted = arith::AddIOp::create(b, loc, d, remainder);
  Value torchRemainder = arith::RemSIOp::create(b, loc, shifted, safe);
  return {floorQuotient, torchRemainder};
}

/// `base ** exponent` for i64s by repeated squaring (wrapping, as torch's
/// loop does); 0 for a negative exponent, where torch raises.
static Value intPower(OpBuilder &b, Location loc, Value base, Value exponent) {
  Type i64 = base.getType();
  Value zero = intConstant(b, loc, i64, 0);
  Value one = intConstant(b, loc, i64, 1);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i64, i64, i64}, ValueRange{one, base, exponent},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                           args[2], zero);
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value acc = args[0], square = args[1], rest = args[2];
        Value bit = arith::AndIOp::create(b, loc, rest, one);
        Value odd =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit, zero);
        Value product = arith::MulIOp::create(b, loc, acc, square);
        acc = arith::SelectOp::create(b, loc, odd, product, acc);
        square = arith::MulIOp::create(b, loc, square, square);
        rest = arith::ShRUIOp::create(b, loc, rest, one);
        scf::YieldOp::create(b, loc, ValueRange{acc, square, rest});
      });
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  return arith::SelectOp::create(b, loc, negative, zero, loop.getResult(0));
}

/// The type a binary op computes in: f64 for true division and when an
/// operand or the result is a float (so `pow.int`, which returns a float,
/// raises in f64), i1 for bitwise ops on two bools, i64 otherwise.
static Type computeType(OpBuilder &b, BinaryOp kind, Type lhs, Type rhs,
                        Type result) {
  bool bitwise = kind == BinaryOp::BitAnd || kind == BinaryOp::BitOr ||
                 kind == BinaryOp::BitXor;
  if (bitwise)
    return lhs.isInteger(1) && rhs.isInteger(1) ? b.getI1Type()
                                                : b.getI64Type();
  if (kind == BinaryOp::IntPow)
    return b.getI64Type();
  if (kind == BinaryOp::Div || isa<FloatType>(lhs) || isa<FloatType>(rhs) ||
      isa<FloatType>(result))
    return b.getF64Type();
  return b.getI64Type();
}

static Value buildBinary(OpBuilder &b, Location loc, BinaryOp kind, Value lhs,
                         Value rhs, Type resultType) {
  Type type = computeType(b, kind, lhs.getType(), rhs.getType(), resultType);
  lhs = castScalar(b, loc, lhs, type);
  rhs = castScalar(b, loc, rhs, type);
  bool isFloat = isa<FloatType>(type);
  Value result;
  switch (kind) {
  case BinaryOp::Add:
    result = isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                     : Value(arith::AddIOp::create(b, loc, lhs, rhs));
    break;
  case BinaryOp::Sub:
    result = isFloat ? Value(arith::SubFOp::create(b, loc, lhs, rhs))
                     : Value(arith::SubIOp::create(b, loc, lhs, rhs));
    break;
  case BinaryOp::Mul:
    result = isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                     : Value(arith::MulIOp::create(b, loc, lhs, rhs));
    break;
  case BinaryOp::Div:
    // Only reached with floats: every div overload returns a float.
    result = arith::DivFOp::create(b, loc, lhs, rhs);
    break;
  case BinaryOp::FloorDiv:
    result = isFloat ? Value(math::FloorOp::create(
                           b, loc, arith::DivFOp::create(b, loc, lhs, rhs)))
                     : floorDivRem(b, loc, lhs, rhs).first;
    break;
  case BinaryOp::Remainder:
    if (isFloat) {
      // torch's formula, fmod(b + fmod(a, b), b): the result takes the
      // divisor's sign, as Python's does.
      Value inner = arith::RemFOp::create(b, loc, lhs, rhs);
      Value shifted = arith::AddFOp::create(b, loc, rhs, inner);
      result = arith::RemFOp::create(b, loc, shifted, rhs);
    } else {
      result = floorDivRem(b, loc, lhs, rhs).second;
    }
    break;
  case BinaryOp::Pow:
    result = isFloat ? Value(math::PowFOp::create(b, loc, lhs, rhs))
                     : intPower(b, loc, lhs, rhs);
    break;
  case BinaryOp::IntPow:
    result = intPower(b, loc, lhs, rhs);
    break;
  case BinaryOp::BitAnd:
    result = arith::AndIOp::create(b, loc, lhs, rhs);
    break;
  case BinaryOp::BitOr:
    result = arith::OrIOp::create(b, loc, lhs, rhs);
    break;
  case BinaryOp::BitXor:
    result = arith::XOrIOp::create(b, loc, lhs, rhs);
    break;
  }
  return castScalar(b, loc, result, resultType);
}

/// `int(x)` of an f64: truncated toward zero, INT64_MIN for NaN, inf and
/// values outside int64 (scalar::floatToInt), where a bare fptosi would be
/// poison.
static Value floatToInt(OpBuilder &b, Location loc, Value value) {
  Type f64 = value.getType(), i64 = b.getI64Type();
  auto bound = [&](double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, v));
  };
  Value aboveLow = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                         value, bound(-9223372036854777856.0));
  Value belowHigh = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                          value, bound(9223372036854775808.0));
  Value inRange = arith::AndIOp::create(b, loc, aboveLow, belowHigh);
  Value truncated = arith::FPToSIOp::create(b, loc, i64, value);
  Value lowest = intConstant(b, loc, i64, std::numeric_limits<int64_t>::min());
  return arith::SelectOp::create(b, loc, inRange, truncated, lowest);
}

static Value buildUnary(OpBuilder &b, Location loc, UnaryKind kind,
                        Value operand, Type resultType) {
  Type f64 = b.getF64Type();
  Value result;
  switch (kind) {
  case UnaryKind::Neg:
    if (isa<FloatType>(operand.getType())) {
      result = arith::NegFOp::create(b, loc, operand);
    } else {
      operand = castScalar(b, loc, operand, b.getI64Type());
      Value zero = intConstant(b, loc, operand.getType(), 0);
      result = arith::SubIOp::create(b, loc, zero, operand);
    }
    break;
  case UnaryKind::Sqrt:
    result = math::SqrtOp::create(b, loc, castScalar(b, loc, operand, f64));
    break;
  case UnaryKind::Exp:
    result = math::ExpOp::create(b, loc, castScalar(b, loc, operand, f64));
    break;
  case UnaryKind::Log:
    result = math::LogOp::create(b, loc, castScalar(b, loc, operand, f64));
    break;
  case UnaryKind::Floor:
    result = math::FloorOp::create(b, loc, castScalar(b, loc, operand, f64));
    break;
  case UnaryKind::Ceil:
    result = math::CeilOp::create(b, loc, castScalar(b, loc, operand, f64));
    break;
  case UnaryKind::Round:
    // Python's round() rounds half to even.
    result =
        math::RoundEvenOp::create(b, loc, castScalar(b, loc, operand, f64));
    break;
  case UnaryKind::Cast:
    result = operand;
    break;
  }
  if (result.getType().isF64() && resultType.isInteger(64))
    return floatToInt(b, loc, result);
  return castScalar(b, loc, result, resultType);
}

/// Whether every operand and result of `op` is an int, float or bool; the
/// Scalar overloads (`aten.add`, `aten.Float.Scalar`) may carry `number`s
/// that refineKnownNumbers could not type.
static bool allBuiltinScalars(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), conversion::isBuiltinScalarType) &&
         llvm::all_of(op->getResultTypes(), conversion::isBuiltinScalarType);
}

namespace {

/// One pattern for every binary overload, matched by op name: the
/// overloads differ only in operand types, which buildBinary promotes.
class BinaryPattern : public ConversionPattern {
public:
  BinaryPattern(const TypeConverter &typeConverter, MLIRContext *context,
                StringRef opName, BinaryOp kind)
      : ConversionPattern(typeConverter, opName, /*benefit=*/1, context),
        kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (operands.size() != 2 || op->getNumResults() != 1 ||
        !allBuiltinScalars(op))
      return rewriter.notifyMatchFailure(op, "not a binary op on scalars");
    rewriter.replaceOp(op,
                       buildBinary(rewriter, op->getLoc(), kind, operands[0],
                                   operands[1], op->getResult(0).getType()));
    return success();
  }

private:
  BinaryOp kind;
};

class UnaryPattern : public ConversionPattern {
public:
  UnaryPattern(const TypeConverter &typeConverter, MLIRContext *context,
               StringRef opName, UnaryKind kind)
      : ConversionPattern(typeConverter, opName, /*benefit=*/1, context),
        kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (operands.size() != 1 || op->getNumResults() != 1 ||
        !allBuiltinScalars(op))
      return rewriter.notifyMatchFailure(op, "not a unary op on scalars");
    rewriter.replaceOp(op, buildUnary(rewriter, op->getLoc(), kind, operands[0],
                                      op->getResult(0).getType()));
    return success();
  }

private:
  UnaryKind kind;
};

/// `len(range(lo, hi, step))`, as TorchScript's for-loops over ranges
/// compute their trip count; a zero step (torch raises) gives 0.
struct RangeLengthPattern : OpConversionPattern<aten::PrivateRangeLengthOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::PrivateRangeLengthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lo = adaptor.getLo(), hi = adaptor.getHi(), step = adaptor.getStep();
    Type i64 = lo.getType();
    auto cmp = [&](arith::CmpIPredicate predicate, Value x, Value y) {
      return arith::CmpIOp::create(rewriter, loc, predicate, x, y);
    };
    Value zero = intConstant(rewriter, loc, i64, 0);
    Value one = intConstant(rewriter, loc, i64, 1);
    Value up = arith::AndIOp::create(rewriter, loc,
                                     cmp(arith::CmpIPredicate::sgt, step, zero),
                                     cmp(arith::CmpIPredicate::slt, lo, hi));
    Value down = arith::AndIOp::create(
        rewriter, loc, cmp(arith::CmpIPredicate::slt, step, zero),
        cmp(arith::CmpIPredicate::sgt, lo, hi));
    // up: 1 + (hi - 1 - lo) / step; down: 1 + (lo - 1 - hi) / -step. The
    // span is non-negative and the divisor positive in both cases that use
    // them, so truncating division is floor division here.
    Value upSpan = arith::SubIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, hi, one), lo);
    Value downSpan = arith::SubIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, lo, one), hi);
    Value span = arith::SelectOp::create(rewriter, loc, up, upSpan, downSpan);
    Value negStep = arith::SubIOp::create(rewriter, loc, zero, step);
    Value magnitude = arith::SelectOp::create(
        rewriter, loc, up, step,
        arith::SelectOp::create(rewriter, loc, down, negStep, one));
    Value count = arith::AddIOp::create(
        rewriter, loc, one,
        arith::DivSIOp::create(rewriter, loc, span, magnitude));
    Value nonEmpty = arith::OrIOp::create(rewriter, loc, up, down);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, nonEmpty, count, zero);
    return success();
  }
};

/// The loop variable of a for-loop over a range: start + index * step.
struct DeriveIndexPattern : OpConversionPattern<aten::PrivateDeriveIndexOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::PrivateDeriveIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value scaled = arith::MulIOp::create(rewriter, op.getLoc(),
                                         adaptor.getIndex(), adaptor.getStep());
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, adaptor.getStart(), scaled);
    return success();
  }
};

} // namespace

template <typename... OpTys>
static void addBinary(const TypeConverter &typeConverter,
                      RewritePatternSet &patterns, BinaryOp kind) {
  (patterns.add<BinaryPattern>(typeConverter, patterns.getContext(),
                               OpTys::getOperationName(), kind),
   ...);
}

template <typename... OpTys>
static void addUnary(const TypeConverter &typeConverter,
                     RewritePatternSet &patterns, UnaryKind kind) {
  (patterns.add<UnaryPattern>(typeConverter, patterns.getContext(),
                              OpTys::getOperationName(), kind),
   ...);
}

void tsir::conversion::populateScalarArithmeticPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  using namespace aten;
  const TypeConverter &tc = typeConverter;
  addBinary<AddIntOp, AddFloatOp, AddIntFloatOp, AddFloatIntOp, AddOp>(
      tc, patterns, BinaryOp::Add);
  addBinary<SubIntOp, SubFloatOp, SubIntFloatOp, SubFloatIntOp, SubOp>(
      tc, patterns, BinaryOp::Sub);
  addBinary<MulIntOp, MulFloatOp, MulIntFloatOp, MulFloatIntOp, MulOp>(
      tc, patterns, BinaryOp::Mul);
  addBinary<DivIntOp, DivFloatOp, DivOp>(tc, patterns, BinaryOp::Div);
  addBinary<FloordivIntOp, FloordivFloatOp, FloordivIntFloatOp,
            FloordivFloatIntOp, FloordivOp>(tc, patterns, BinaryOp::FloorDiv);
  addBinary<RemainderIntOp, RemainderFloatOp, RemainderIntFloatOp,
            RemainderFloatIntOp, RemainderOp>(tc, patterns,
                                              BinaryOp::Remainder);
  addBinary<PowIntOp, PowFloatOp, PowIntFloatOp, PowFloatIntOp>(
      tc, patterns, BinaryOp::Pow);
  addBinary<PowIntToIntOp>(tc, patterns, BinaryOp::IntPow);
  addBinary<DunderAndIntOp, DunderAndBoolOp>(tc, patterns, BinaryOp::BitAnd);
  addBinary<DunderOrIntOp, DunderOrBoolOp>(tc, patterns, BinaryOp::BitOr);
  addBinary<DunderXorIntOp, DunderXorBoolOp>(tc, patterns, BinaryOp::BitXor);

  addUnary<NegIntOp, NegFloatOp>(tc, patterns, UnaryKind::Neg);
  addUnary<SqrtIntOp, SqrtFloatOp>(tc, patterns, UnaryKind::Sqrt);
  addUnary<ExpIntOp, ExpFloatOp>(tc, patterns, UnaryKind::Exp);
  addUnary<LogIntOp, LogFloatOp>(tc, patterns, UnaryKind::Log);
  addUnary<FloorFloatOp>(tc, patterns, UnaryKind::Floor);
  addUnary<CeilFloatOp>(tc, patterns, UnaryKind::Ceil);
  addUnary<RoundFloatOp>(tc, patterns, UnaryKind::Round);
  addUnary<IntFloatOp, IntBoolOp, IntScalarOp, FloatIntOp, FloatBoolOp,
           FloatScalarOp, BoolIntOp, BoolFloatOp>(tc, patterns,
                                                  UnaryKind::Cast);

  patterns.add<RangeLengthPattern, DeriveIndexPattern>(typeConverter,
                                                       patterns.getContext());
}
