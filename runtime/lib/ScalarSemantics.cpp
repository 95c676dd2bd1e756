//===- ScalarSemantics.cpp - TorchScript's int and float arithmetic -------===//
//
// See ScalarSemantics.h.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/ScalarSemantics.h"

#include <cmath>
#include <limits>
#include <utility>

using namespace tsir::scalar;

/// Whether `overload` is one of the scalar overloads of an operator.
static bool isScalarOverload(std::string_view overload) {
  for (std::string_view scalar : {"int", "float", "int_float", "float_int",
                                  "bool", "Scalar", "int_to_int", ""})
    if (overload == scalar)
      return true;
  return false;
}

/// `add.int` as {"add", "int"}; a name without a dot has the overload "".
static std::pair<std::string_view, std::string_view>
splitOverload(std::string_view name) {
  size_t dot = name.find('.');
  if (dot == std::string_view::npos)
    return {name, ""};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

std::optional<BinaryOp> tsir::scalar::binaryOpNamed(std::string_view name) {
  auto [base, overload] = splitOverload(name);
  if (!isScalarOverload(overload))
    return std::nullopt;
  if (base == "pow" && overload == "int_to_int")
    return BinaryOp::IntPow;
  static constexpr std::pair<std::string_view, BinaryOp> kOperators[] = {
      {"add", BinaryOp::Add},           {"sub", BinaryOp::Sub},
      {"mul", BinaryOp::Mul},           {"div", BinaryOp::Div},
      {"floordiv", BinaryOp::FloorDiv}, {"remainder", BinaryOp::Remainder},
      {"pow", BinaryOp::Pow},           {"__and__", BinaryOp::BitAnd},
      {"__or__", BinaryOp::BitOr},      {"__xor__", BinaryOp::BitXor},
  };
  for (auto [operatorName, op] : kOperators)
    if (base == operatorName)
      return op;
  return std::nullopt;
}

std::optional<CompareOp> tsir::scalar::compareOpNamed(std::string_view name) {
  auto [base, overload] = splitOverload(name);
  if (!isScalarOverload(overload))
    return std::nullopt;
  static constexpr std::pair<std::string_view, CompareOp> kComparisons[] = {
      {"eq", CompareOp::Eq}, {"ne", CompareOp::Ne}, {"lt", CompareOp::Lt},
      {"le", CompareOp::Le}, {"gt", CompareOp::Gt}, {"ge", CompareOp::Ge},
  };
  for (auto [comparisonName, op] : kComparisons)
    if (base == comparisonName)
      return op;
  return std::nullopt;
}

/// Sets `error` (when given) and says there is no result.
template <typename T>
static std::optional<T> raise(std::string *error, const char *message) {
  if (error)
    *error = message;
  return std::nullopt;
}

static int64_t wrap(uint64_t value) { return static_cast<int64_t>(value); }

std::optional<int64_t> tsir::scalar::applyInt(BinaryOp op, int64_t a, int64_t b,
                                              std::string *error) {
  uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
  switch (op) {
  case BinaryOp::Add:
    return wrap(x + y);
  case BinaryOp::Sub:
    return wrap(x - y);
  case BinaryOp::Mul:
    return wrap(x * y);
  case BinaryOp::BitAnd:
    return a & b;
  case BinaryOp::BitOr:
    return a | b;
  case BinaryOp::BitXor:
    return a ^ b;
  case BinaryOp::FloorDiv:
  case BinaryOp::Remainder: {
    if (b == 0)
      return raise<int64_t>(error, "ZeroDivisionError: integer division or "
                                   "modulo by zero");
    bool floorDiv = op == BinaryOp::FloorDiv;
    // C++ leaves INT64_MIN / -1 undefined (x86 traps): it wraps here.
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return floorDiv ? a : 0;
    if (floorDiv) {
      int64_t quotient = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
    }
    // torch's `(b + a % b) % b`, wrapping.
    return wrap(y + static_cast<uint64_t>(a % b)) % b;
  }
  case BinaryOp::IntPow: {
    if (b < 0)
      return raise<int64_t>(error, "Integers to negative integer powers are "
                                   "not allowed");
    uint64_t result = 1, square = x;
    for (uint64_t rest = y; rest; rest >>= 1) {
      if (rest & 1)
        result *= square;
      square *= square;
    }
    return wrap(result);
  }
  case BinaryOp::Div:
  case BinaryOp::Pow:
    break;
  }
  return raise<int64_t>(error, "not an operator on two ints");
}

std::optional<double> tsir::scalar::applyFloat(BinaryOp op, double a, double b,
                                               std::string *error) {
  switch (op) {
  case BinaryOp::Add:
    return a + b;
  case BinaryOp::Sub:
    return a - b;
  case BinaryOp::Mul:
    return a * b;
  case BinaryOp::Div:
    return a / b;
  case BinaryOp::FloorDiv:
    return std::floor(a / b);
  case BinaryOp::Remainder:
    return std::fmod(b + std::fmod(a, b), b);
  case BinaryOp::Pow:
    if (a == 0 && b < 0)
      return raise<double>(error, "ZeroDivisionError: 0.0 cannot be raised "
                                  "to a negative power");
    return std::pow(a, b);
  case BinaryOp::IntPow:
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    break;
  }
  return raise<double>(error, "not an operator on two floats");
}

static constexpr double kTwoTo63 = 9223372036854775808.0;

int64_t tsir::scalar::floatToInt(double value) {
  double truncated = std::trunc(value);
  if (!(truncated >= -kTwoTo63 && truncated < kTwoTo63)) // NaN fails too
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(truncated);
}

std::optional<int64_t> tsir::scalar::checkedFloatToInt(double value,
                                                       std::string *error) {
  double truncated = std::trunc(value);
  if (!(truncated >= -kTwoTo63 && truncated < kTwoTo63))
    return raise<int64_t>(error, "RuntimeError: Cannot convert float to "
                                 "int: it is outside the range of int64");
  return static_cast<int64_t>(truncated);
}
