//===- ConstantMatchers.h - Constant operands of prim/aten ops --*- C++ -*-===//
//
// Reading an op's constant operands: the int, float, bool, string or int
// list a `prim.Constant` (or, mid-conversion, an `arith.constant` behind
// unrealized casts) holds, the elements of a `prim.ListConstruct`, None,
// and Python's negative dim indexing. The decompositions (tsir-decompose)
// and the convert-* patterns read their operands through these.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_CONSTANTMATCHERS_H
#define TSIR_TRANSFORMS_CONSTANTMATCHERS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tsir {

/// The int a `prim.Constant` (or `arith.constant`) defining `value` holds.
std::optional<int64_t> matchConstantInt(mlir::Value value);

/// The float a constant defining `value` holds; an int constant is accepted
/// and converted, as TorchScript's Scalar arguments are.
std::optional<double> matchConstantFloat(mlir::Value value);

/// The bool a constant defining `value` holds.
std::optional<bool> matchConstantBool(mlir::Value value);

/// The string a constant defining `value` holds (a mode, an equation).
std::optional<llvm::StringRef> matchConstantString(mlir::Value value);

/// Whether `value` is TorchScript's None: a `!prim.none` value, or a None
/// constant of an Optional type.
bool isNone(mlir::Value value);

/// The ints of an `int[]` operand: a list `prim.Constant`, or a
/// `prim.ListConstruct` whose elements are all constant.
std::optional<llvm::SmallVector<int64_t>> matchConstantIntList(mlir::Value value);

/// The elements of a `prim.ListConstruct` defining `value` (tensor lists of
/// cat/stack), or nullopt for any other list.
std::optional<llvm::SmallVector<mlir::Value>> getListElements(mlir::Value value);

/// A dim index in [0, rank), with Python's negative indexing; nullopt when
/// out of range. As in torch, a 0-d tensor accepts -1 and 0, both 0.
std::optional<int64_t> normalizeDim(int64_t dim, int64_t rank);

} // namespace tsir

#endif // TSIR_TRANSFORMS_CONSTANTMATCHERS_H
