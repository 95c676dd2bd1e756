//===- FoldUtils.h - Helpers shared by tsir's passes ------------*- C++ -*-===//
//
// What the passes in passes/transforms share: reading and checking
// prim.Constant values, TorchScript's ScalarType numbers, result names in
// locations, and replacements and casts that keep MLIR's types valid where
// TorchScript would simply let a value of a subtype flow on (a yielded
// `None` for an `int?` result).
// Private to passes/transforms.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_TRANSFORMS_FOLDUTILS_H
#define TSIR_PASSES_TRANSFORMS_FOLDUTILS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/BitVector.h"

#include <optional>

namespace tsir {

/// The value attribute of the `prim.Constant` defining `value`, or null.
mlir::Attribute getConstantValue(mlir::Value value);

/// The string a `prim.Constant` of str type defining `value` holds (a
/// dict's constant key), or nullopt.
std::optional<llvm::StringRef> getConstantString(mlir::Value value);

/// Whether `use` reads its dict and keeps no reference to it: `d[k]`,
/// `d.get(k)`, `k in d`, `len(d)`, and `d.keys()`/`d.values()`/
/// `d.items()`, which build new lists.
bool onlyReadsDict(mlir::OpOperand &use);

/// Whether `value` is a valid `prim.Constant` value of `type` (the same rule
/// as the op's verifier), so that a fold never builds an invalid constant.
bool isValidConstant(mlir::Attribute value, mlir::Type type);

/// The location of the op defining `value`, narrowed to `value`'s own name
/// where the op has several results (a node's location lists the names of
/// all its outputs); a block argument's location.
mlir::Location getValueLocation(mlir::Value value);

/// `op`'s location without the names of the results in `dropped`, for the
/// op that replaces it with fewer results.
mlir::Location dropResultNames(mlir::Operation *op,
                               const llvm::BitVector &dropped);

/// Replaces every use of `from` by `to`, which must dominate them. Where the
/// types differ (an If result typed `int?` replaced by the `None` a branch
/// yields, a refined tensor replaced by a plain one), uses in aten ops, whose
/// operands accept any tensor or any subtype, take `to` directly; every other
/// use (func.return, yields, ops of other dialects) goes through one
/// `prim.unchecked_cast` back to `from`'s type, named as `from`.
void replaceValueWith(mlir::RewriterBase &rewriter, mlir::Value from,
                      mlir::Value to);

/// `value` as a `type` value, through a `prim.unchecked_cast` at `loc` when
/// the types differ: a yielded value may be a subtype of the slot it flows
/// into, and ops built on the slot must see the slot's type.
mlir::Value castTo(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value value, mlir::Type type);

/// Whether the aten op using `use` accepts a value of type `type` in its
/// place without re-verification problems (see replaceValueWith).
bool atenUseAccepts(mlir::OpOperand &use, mlir::Type type);

/// The positions `l[start:stop:step]` takes from a list of `length`, with
/// Python's index adjustment (TorchScript's slice_indices_adjust); nullopt
/// for a start or stop given as None. Fails where TorchScript raises (a zero
/// step).
mlir::FailureOr<llvm::SmallVector<int64_t>>
sliceIndices(int64_t length, std::optional<int64_t> start,
             std::optional<int64_t> stop, int64_t step);

/// TorchScript's ScalarType number (`Float` is 6, `Long` is 4) of a tensor
/// dtype, as `prim.dtype` returns it; nullopt if tsir has no number for it.
std::optional<int64_t> scalarTypeNumber(mlir::Type dtype);

} // namespace tsir

#endif // TSIR_PASSES_TRANSFORMS_FOLDUTILS_H
