//===- ScalarFolding.cpp - TorchScript's scalar ops on constants ----------===//
//
// The int/float/bool entries of the constant-folding table: arithmetic,
// comparisons, math functions and conversions, computed as TorchScript's
// interpreter computes them: the arithmetic and float-to-int conversions
// as tsir-runtime/ScalarSemantics.h defines them for the folder, the
// lowering and the interpreter alike; int-float mixes compute in double,
// `round` rounds half to even. Nothing that raises at run time is folded
// (int division or modulo by zero, `0.0 ** -1`, floor/ceil of a float out
// of int64 range), and constant propagation keeps non-finite results
// (inf, NaN) unfolded: TorchScript's text has no literal for them.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"

#include "tsir-runtime/ScalarSemantics.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace tsir;

namespace {

/// A TorchScript `int` or `float` (a `Scalar` is one or the other).
struct Number {
  bool isInt;
  int64_t i = 0;
  double f = 0;

  static Number ofInt(int64_t value) { return {true, value, 0}; }
  static Number ofFloat(double value) { return {false, 0, value}; }
  double asDouble() const { return isInt ? static_cast<double>(i) : f; }
};

/// An int (i64) or float (f64) constant; bools are not numbers here.
std::optional<Number> getNumber(Attribute value) {
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value))
    if (integer.getType().isInteger(64))
      return Number::ofInt(integer.getInt());
  if (auto number = dyn_cast_or_null<FloatAttr>(value))
    if (number.getType().isF64())
      return Number::ofFloat(number.getValueAsDouble());
  return std::nullopt;
}

std::optional<bool> getBool(Attribute value) {
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value))
    if (integer.getType().isInteger(1))
      return integer.getValue().getBoolValue();
  return std::nullopt;
}

/// The constant of `type` (i64, f64, or Scalar) holding `number`; null if
/// the number is of the other kind.
Attribute numberAttr(Type type, Number number) {
  MLIRContext *context = type.getContext();
  bool wantsInt = type.isInteger(64);
  bool wantsFloat = type.isF64();
  if (!wantsInt && !wantsFloat && !isa<prim::NumberType>(type))
    return {};
  if (number.isInt && !wantsFloat)
    return IntegerAttr::get(IntegerType::get(context, 64), number.i);
  if (!number.isInt && !wantsInt)
    return FloatAttr::get(Float64Type::get(context), number.f);
  return {};
}

Attribute boolAttr(MLIRContext *context, bool value) {
  return IntegerAttr::get(IntegerType::get(context, 1), value);
}

/// One arithmetic op on two numbers, as ScalarSemantics.h defines it:
/// ints stay ints except in true division and `pow.int` (a float); nullopt
/// where TorchScript raises.
std::optional<Number> arith(scalar::BinaryOp kind, Number a, Number b) {
  if (a.isInt && b.isInt && kind != scalar::BinaryOp::Div &&
      kind != scalar::BinaryOp::Pow) {
    std::optional<int64_t> value = scalar::applyInt(kind, a.i, b.i);
    if (!value)
      return std::nullopt;
    return Number::ofInt(*value);
  }
  std::optional<double> value =
      scalar::applyFloat(kind, a.asDouble(), b.asDouble());
  if (!value)
    return std::nullopt;
  return Number::ofFloat(*value);
}

template <scalar::BinaryOp kind>
LogicalResult evalArith(Operation *op, ArrayRef<Attribute> operands,
                        SmallVectorImpl<Attribute> &results) {
  std::optional<Number> a = getNumber(operands[0]), b = getNumber(operands[1]);
  if (!a || !b)
    return failure();
  std::optional<Number> result = arith(kind, *a, *b);
  if (!result)
    return failure();
  Attribute attr = numberAttr(op->getResult(0).getType(), *result);
  if (!attr)
    return failure();
  results.push_back(attr);
  return success();
}

/// Numbers compare exactly as ints, or else as doubles (the int converted),
/// as TorchScript's int_float overloads do; bools compare as bools.
template <scalar::CompareOp kind>
LogicalResult evalCompare(Operation *op, ArrayRef<Attribute> operands,
                          SmallVectorImpl<Attribute> &results) {
  bool value;
  std::optional<Number> a = getNumber(operands[0]), b = getNumber(operands[1]);
  std::optional<bool> p = getBool(operands[0]), q = getBool(operands[1]);
  if (a && b)
    value = a->isInt && b->isInt ? scalar::applyCompare(kind, a->i, b->i)
                                 : scalar::applyCompare(kind, a->asDouble(), b->asDouble());
  else if (p && q)
    value = scalar::applyCompare(kind, *p, *q);
  else
    return failure();
  results.push_back(boolAttr(op->getContext(), value));
  return success();
}

/// A unary op whose result is a number (or fails).
template <std::optional<Number> (*fn)(Number)>
LogicalResult evalUnary(Operation *op, ArrayRef<Attribute> operands,
                        SmallVectorImpl<Attribute> &results) {
  std::optional<Number> a = getNumber(operands[0]);
  if (!a)
    return failure();
  std::optional<Number> result = fn(*a);
  if (!result)
    return failure();
  Attribute attr = numberAttr(op->getResult(0).getType(), *result);
  if (!attr)
    return failure();
  results.push_back(attr);
  return success();
}

std::optional<Number> negate(Number a) {
  return a.isInt ? Number::ofInt(*scalar::applyInt(scalar::BinaryOp::Sub, 0, a.i))
                 : Number::ofFloat(-a.f);
}
std::optional<Number> squareRoot(Number a) {
  return Number::ofFloat(std::sqrt(a.asDouble()));
}
std::optional<Number> exponential(Number a) {
  return Number::ofFloat(std::exp(a.asDouble()));
}
std::optional<Number> logarithm(Number a) {
  return Number::ofFloat(std::log(a.asDouble()));
}

double floorOf(double value) { return std::floor(value); }
double ceilOf(double value) { return std::ceil(value); }

/// floor/ceil to int: TorchScript checks the float is within int64's range
/// (`checkDoubleInRange`) and raises otherwise.
template <double (*rounding)(double)>
std::optional<Number> roundToInt(Number a) {
  if (a.isInt)
    return std::nullopt;
  std::optional<int64_t> value = scalar::checkedFloatToInt(rounding(a.f));
  if (!value)
    return std::nullopt;
  return Number::ofInt(*value);
}

/// TorchScript's `round_to_even`.
std::optional<Number> roundHalfEven(Number a) {
  if (a.isInt)
    return std::nullopt;
  double x = a.f;
  double rounded =
      x - std::floor(x) == 0.5 ? std::round(x * 0.5) * 2.0 : std::round(x);
  return Number::ofFloat(rounded);
}

/// `int(x)`.
std::optional<Number> toInt(Number a) {
  if (a.isInt)
    return a;
  return Number::ofInt(scalar::floatToInt(a.f));
}

std::optional<Number> toFloat(Number a) {
  return Number::ofFloat(a.asDouble());
}

LogicalResult evalIntOfBool(Operation *op, ArrayRef<Attribute> operands,
                            SmallVectorImpl<Attribute> &results) {
  std::optional<bool> a = getBool(operands[0]);
  if (!a)
    return failure();
  results.push_back(
      IntegerAttr::get(IntegerType::get(op->getContext(), 64), *a));
  return success();
}

LogicalResult evalFloatOfBool(Operation *op, ArrayRef<Attribute> operands,
                              SmallVectorImpl<Attribute> &results) {
  std::optional<bool> a = getBool(operands[0]);
  if (!a)
    return failure();
  results.push_back(
      FloatAttr::get(Float64Type::get(op->getContext()), *a ? 1.0 : 0.0));
  return success();
}

LogicalResult evalBoolOfNumber(Operation *op, ArrayRef<Attribute> operands,
                               SmallVectorImpl<Attribute> &results) {
  std::optional<Number> a = getNumber(operands[0]);
  if (!a)
    return failure();
  results.push_back(
      boolAttr(op->getContext(), a->isInt ? a->i != 0 : a->f != 0.0));
  return success();
}

enum class Logic { And, Or, Xor };

template <Logic kind>
LogicalResult evalLogic(Operation *op, ArrayRef<Attribute> operands,
                        SmallVectorImpl<Attribute> &results) {
  std::optional<Number> a = getNumber(operands[0]), b = getNumber(operands[1]);
  if (a && b && a->isInt && b->isInt) {
    int64_t value = kind == Logic::And  ? (a->i & b->i)
                    : kind == Logic::Or ? (a->i | b->i)
                                        : (a->i ^ b->i);
    results.push_back(
        IntegerAttr::get(IntegerType::get(op->getContext(), 64), value));
    return success();
  }
  std::optional<bool> p = getBool(operands[0]), q = getBool(operands[1]);
  if (!p || !q)
    return failure();
  bool value = kind == Logic::And  ? (*p && *q)
               : kind == Logic::Or ? (*p || *q)
                                   : (*p != *q);
  results.push_back(boolAttr(op->getContext(), value));
  return success();
}

LogicalResult evalNot(Operation *op, ArrayRef<Attribute> operands,
                      SmallVectorImpl<Attribute> &results) {
  std::optional<bool> a = getBool(operands[0]);
  if (!a)
    return failure();
  results.push_back(boolAttr(op->getContext(), !*a));
  return success();
}

/// `aten::__range_length(lo, hi, step)`: the trip count of `range`.
LogicalResult evalRangeLength(Operation *op, ArrayRef<Attribute> operands,
                              SmallVectorImpl<Attribute> &results) {
  std::optional<Number> lo = getNumber(operands[0]),
                        hi = getNumber(operands[1]),
                        step = getNumber(operands[2]);
  if (!lo || !hi || !step || !lo->isInt || !hi->isInt || !step->isInt)
    return failure();
  // "range() arg 3 must not be zero" raises; overflowing spans are
  // undefined in TorchScript's C++.
  if (step->i == 0 || step->i == std::numeric_limits<int64_t>::min())
    return failure();
  int64_t length = 0, span;
  if (step->i > 0 && lo->i < hi->i) {
    if (__builtin_sub_overflow(hi->i - 1, lo->i, &span))
      return failure();
    length = 1 + span / step->i;
  } else if (step->i < 0 && lo->i > hi->i) {
    if (__builtin_sub_overflow(lo->i - 1, hi->i, &span))
      return failure();
    length = 1 + span / (0 - step->i);
  }
  results.push_back(
      IntegerAttr::get(IntegerType::get(op->getContext(), 64), length));
  return success();
}

/// `aten::__derive_index(index, start, step)`: `start + index * step`.
LogicalResult evalDeriveIndex(Operation *op, ArrayRef<Attribute> operands,
                              SmallVectorImpl<Attribute> &results) {
  std::optional<Number> index = getNumber(operands[0]),
                        start = getNumber(operands[1]),
                        step = getNumber(operands[2]);
  if (!index || !start || !step || !index->isInt || !start->isInt ||
      !step->isInt)
    return failure();
  results.push_back(
      IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                       *scalar::applyInt(scalar::BinaryOp::Add, start->i,
                          *scalar::applyInt(scalar::BinaryOp::Mul, index->i,
                                            step->i))));
  return success();
}

/// `prim::min`/`prim::max` of two numbers (or of a list): `a < b ? a : b` and
/// `a > b ? a : b`, in double when either is a float (so a NaN second
/// operand wins, as in TorchScript).
template <bool isMin>
LogicalResult evalMinMax(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  // `min(l)` of a constant list (`for i in range(min(len(a), len(b)))`, as
  // zip prints): its least element, or its greatest; an empty list raises.
  if (operands.size() == 1 && op->getNumResults() == 1) {
    auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
    if (!list || list.empty())
      return failure();
    Attribute best = list[0];
    for (Attribute element : list.getValue().drop_front()) {
      SmallVector<Attribute> pair;
      if (failed(evalMinMax<isMin>(op, {best, element}, pair)))
        return failure();
      best = pair.front();
    }
    results.push_back(best);
    return success();
  }
  if (operands.size() != 2 || op->getNumResults() != 1)
    return failure();
  std::optional<Number> a = getNumber(operands[0]), b = getNumber(operands[1]);
  if (!a || !b)
    return failure();
  Number result;
  if (a->isInt && b->isInt) {
    result = (isMin ? a->i < b->i : a->i > b->i) ? *a : *b;
  } else {
    double x = a->asDouble(), y = b->asDouble();
    result = Number::ofFloat((isMin ? x < y : x > y) ? x : y);
  }
  Attribute attr = numberAttr(op->getResult(0).getType(), result);
  if (!attr)
    return failure();
  results.push_back(attr);
  return success();
}

template <scalar::BinaryOp kind, typename... Ops>
void addArith(ConstantEvaluatorTable &table) {
  (table.add<Ops>(evalArith<kind>), ...);
}

template <scalar::CompareOp kind, typename... Ops>
void addCompare(ConstantEvaluatorTable &table) {
  (table.add<Ops>(evalCompare<kind>), ...);
}

} // namespace

void tsir::registerScalarEvaluators(ConstantEvaluatorTable &table) {
  using namespace tsir::aten;
  addArith<scalar::BinaryOp::Add, AddIntOp, AddFloatOp, AddIntFloatOp, AddFloatIntOp,
           AddOp>(table);
  addArith<scalar::BinaryOp::Sub, SubIntOp, SubFloatOp, SubIntFloatOp, SubFloatIntOp,
           SubOp>(table);
  addArith<scalar::BinaryOp::Mul, MulIntOp, MulFloatOp, MulIntFloatOp, MulFloatIntOp,
           MulOp>(table);
  addArith<scalar::BinaryOp::Div, DivIntOp, DivFloatOp, DivOp>(table);
  addArith<scalar::BinaryOp::FloorDiv, FloordivIntOp, FloordivFloatOp, FloordivIntFloatOp,
           FloordivFloatIntOp, FloordivOp>(table);
  addArith<scalar::BinaryOp::Remainder, RemainderIntOp, RemainderFloatOp, RemainderIntFloatOp,
           RemainderFloatIntOp, RemainderOp>(table);
  addArith<scalar::BinaryOp::Pow, PowIntOp, PowFloatOp, PowIntFloatOp,
           PowFloatIntOp>(table);
  addArith<scalar::BinaryOp::IntPow, PowIntToIntOp>(table);

  addCompare<scalar::CompareOp::Eq, EqIntOp, EqFloatOp, EqIntFloatOp, EqFloatIntOp,
             EqBoolOp, EqOp>(table);
  addCompare<scalar::CompareOp::Ne, NeIntOp, NeFloatOp, NeIntFloatOp, NeFloatIntOp,
             NeBoolOp, NeOp>(table);
  addCompare<scalar::CompareOp::Lt, LtIntOp, LtFloatOp, LtIntFloatOp, LtFloatIntOp, LtOp>(
      table);
  addCompare<scalar::CompareOp::Le, LeIntOp, LeFloatOp, LeIntFloatOp, LeFloatIntOp, LeOp>(
      table);
  addCompare<scalar::CompareOp::Gt, GtIntOp, GtFloatOp, GtIntFloatOp, GtFloatIntOp, GtOp>(
      table);
  addCompare<scalar::CompareOp::Ge, GeIntOp, GeFloatOp, GeIntFloatOp, GeFloatIntOp, GeOp>(
      table);

  table.add<NegIntOp>(evalUnary<negate>);
  table.add<NegFloatOp>(evalUnary<negate>);
  table.add<SqrtIntOp>(evalUnary<squareRoot>);
  table.add<SqrtFloatOp>(evalUnary<squareRoot>);
  table.add<ExpIntOp>(evalUnary<exponential>);
  table.add<ExpFloatOp>(evalUnary<exponential>);
  table.add<LogIntOp>(evalUnary<logarithm>);
  table.add<LogFloatOp>(evalUnary<logarithm>);
  table.add<FloorFloatOp>(evalUnary<roundToInt<floorOf>>);
  table.add<CeilFloatOp>(evalUnary<roundToInt<ceilOf>>);
  table.add<RoundFloatOp>(evalUnary<roundHalfEven>);

  table.add<IntFloatOp>(evalUnary<toInt>);
  table.add<IntScalarOp>(evalUnary<toInt>);
  table.add<IntBoolOp>(evalIntOfBool);
  table.add<FloatIntOp>(evalUnary<toFloat>);
  table.add<FloatScalarOp>(evalUnary<toFloat>);
  table.add<FloatBoolOp>(evalFloatOfBool);
  table.add<BoolIntOp>(evalBoolOfNumber);
  table.add<BoolFloatOp>(evalBoolOfNumber);

  table.add<DunderAndIntOp>(evalLogic<Logic::And>);
  table.add<DunderOrIntOp>(evalLogic<Logic::Or>);
  table.add<DunderXorIntOp>(evalLogic<Logic::Xor>);
  table.add<DunderAndBoolOp>(evalLogic<Logic::And>);
  table.add<DunderOrBoolOp>(evalLogic<Logic::Or>);
  table.add<DunderXorBoolOp>(evalLogic<Logic::Xor>);
  table.add<DunderNotOp>(evalNot);

  table.add<PrivateRangeLengthOp>(evalRangeLength);
  table.add<PrivateDeriveIndexOp>(evalDeriveIndex);

  table.addGeneric("prim::min", evalMinMax<true>);
  table.addGeneric("prim::max", evalMinMax<false>);
}
