//===- Patterns.h - convert-aten-to-arith's pattern families ----*- C++ -*-===//
//
// The two halves of convert-aten-to-arith (arithmetic and casts in
// ScalarArithmetic.cpp; comparisons, logic, identity tests and constants in
// ScalarLogic.cpp) and the type test that decides which ops are theirs.
// Private to AtenToArith/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOARITH_PATTERNS_H
#define TSIR_PASSES_CONVERSION_ATENTOARITH_PATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

namespace tsir::conversion {

/// Whether `type` is one of TorchScript's builtin scalars: `int` (i64),
/// `float` (f64) or `bool` (i1).
bool isBuiltinScalarType(mlir::Type type);

/// Gives `number`s (TorchScript's Scalar) whose int or float is known the
/// builtin type, in place, before the conversion runs: an aten op's operand
/// cast to `number` from an int/float/bool by an earlier conversion (as
/// `item()` of a float tensor is) takes the scalar itself, and a Scalar
/// add/sub/mul/floordiv/remainder on known scalars returns what its
/// operands promote to (float if either is), with a cast back to `number`
/// for users outside aten. The conversion's own remapping cannot carry
/// these: it hands later patterns the unconverted `number` value.
void refineKnownNumbers(mlir::Operation *root);

/// add/sub/mul/div/floordiv/remainder/pow in every int/float overload, neg,
/// sqrt/exp/log/floor/ceil/round, the Int/Float/Bool casts, int bitwise
/// ops, __range_length and __derive_index.
void populateScalarArithmeticPatterns(const mlir::TypeConverter &typeConverter,
                                      mlir::RewritePatternSet &patterns);

/// eq/ne/lt/le/gt/ge, bool and/or/xor/not, __is__/__isnot__ decided from
/// types, and scalar prim.Constants.
void populateScalarLogicPatterns(const mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns);

/// Python's abs/min/max on ints and floats (`prim::abs`, `prim::min`,
/// `prim::max`, imported as prim.Generic).
void populatePrimScalarOpPatterns(const mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// `__is__`/`__isnot__` where the operand types decide the answer (None
/// against None, or against a type that cannot hold None), or on two
/// scalars of one type. Also used by convert-aten-to-linalg, where one
/// operand is a tensor.
void populateIdentityTestPatterns(const mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// Whether `op` is an `__is__`/`__isnot__` that the patterns above lower.
bool isLowerableIdentityTest(mlir::Operation *op);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOARITH_PATTERNS_H
