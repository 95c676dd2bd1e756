//===- ScalarSemantics.h - TorchScript's int and float arithmetic -*- C++
//-*-===//
//
// What TorchScript's scalar operators compute, defined once for the three
// places that compute them: the constant folder (tsir-constant-propagation),
// the lowering to arith (convert-aten-to-arith, which emits the same rules
// as IR and cites them here), and the runtime's scalar kernels, which the
// interpreter calls (kernels/ScalarKernels.cpp). It lives in the runtime,
// the floor below the compiler, so that both see one definition; it uses
// no MLIR or LLVM. Measured on
// torch 1.13's TorchScript interpreter (torch/csrc/jit/runtime/
// register_prim_ops.cpp), which is the oracle:
//
// - ints are int64 and wrap around on overflow;
// - `//` rounds toward negative infinity; `%` is torch's
//   `(b + a % b) % b` in wrapping arithmetic (Python's modulo, except where
//   `b + a % b` overflows); a zero divisor raises ZeroDivisionError;
//   INT64_MIN // -1 wraps to INT64_MIN and INT64_MIN % -1 is 0 (torch's
//   own code traps there);
// - float `/`, `//` and `%` by zero give IEEE's inf or nan (they do not
//   raise); float `//` is `floor(a / b)` (so 1.0 // 0.1 is 10.0, where
//   Python says 9.0) and float `%` is `fmod(b + fmod(a, b), b)`;
// - `0.0 ** negative` raises; an int to a negative int power raises;
// - float to int truncates toward zero; NaN, inf and values outside int64
//   give INT64_MIN (what x86's conversion, and so torch, gives).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_SCALARSEMANTICS_H
#define TSIR_RUNTIME_SCALARSEMANTICS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tsir::scalar {

/// TorchScript's binary operators on scalars.
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div, // true division: always a float
  FloorDiv,
  Remainder,
  Pow,    // `pow.int` and friends: a float unless both are ints
  IntPow, // `pow.int_to_int`: an int
  BitAnd,
  BitOr,
  BitXor,
};

/// The operator of a scalar aten op named `name` (without `aten.`):
/// `add.int`, `floordiv.float_int`, `remainder.Scalar`... for the scalar
/// overloads only (`int`, `float`, `int_float`, `float_int`, `bool`,
/// `Scalar`, `int_to_int`, and the unsuffixed Scalar form); nullopt for
/// anything else.
std::optional<BinaryOp> binaryOpNamed(std::string_view name);

/// `a op b` on two ints, for every operator but Div and Pow (which compute
/// in float). Nullopt where TorchScript raises, with its message in
/// `error` when given.
std::optional<int64_t> applyInt(BinaryOp op, int64_t a, int64_t b,
                                std::string *error = nullptr);

/// `a op b` on two floats (ints converted), for every operator but the
/// bitwise ones and IntPow. Nullopt where TorchScript raises, with its
/// message in `error` when given.
std::optional<double> applyFloat(BinaryOp op, double a, double b,
                                 std::string *error = nullptr);

/// TorchScript's comparisons of scalars.
enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };

/// The comparison of a scalar aten op named `name` (without `aten.`):
/// `eq.int`, `lt.float_int`, `ge.Scalar`... for the scalar overloads only;
/// nullopt for anything else.
std::optional<CompareOp> compareOpNamed(std::string_view name);

/// `a op b`: ints compare exactly, anything with a float in double, where
/// NaN is unequal to everything (only `!=` holds), as in TorchScript.
template <typename T> bool applyCompare(CompareOp op, T a, T b) {
  switch (op) {
  case CompareOp::Eq:
    return a == b;
  case CompareOp::Ne:
    return a != b;
  case CompareOp::Lt:
    return a < b;
  case CompareOp::Le:
    return a <= b;
  case CompareOp::Gt:
    return a > b;
  case CompareOp::Ge:
    return a >= b;
  }
  return false;
}

/// `int(value)`.
int64_t floatToInt(double value);

/// A float already rounded (`math.floor`, `math.ceil`) as an int:
/// TorchScript checks it fits int64 (checkDoubleInRange) and raises
/// otherwise.
std::optional<int64_t> checkedFloatToInt(double value,
                                         std::string *error = nullptr);

} // namespace tsir::scalar

#endif // TSIR_RUNTIME_SCALARSEMANTICS_H
