//===- IndexChecks.h - Indices checked at run time, as torch does -*- C++ -*-===//
//
// gather, index_select, embedding, scatter, advanced indexing and nll_loss
// read or write at positions an index tensor holds. torch raises when one
// is out of range; compiled code must too, and must not touch memory out
// of bounds before the caller hears of it. So each such op
//
//   1. checks its index tensor once, before it reads: a reduction to one
//      i1 (any element out of range) and a cf.assert with torch's message,
//      which tsir-lower-runtime-checks turns into an error of the call;
//   2. clamps each index it uses to the dim's bounds: the code after a
//      failed check goes on (it cannot unwind), harmlessly.
//
// Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_INDEXCHECKS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_INDEXCHECKS_H

#include "mlir/IR/Builders.h"

#include <optional>
#include <string>

namespace tsir::conversion {

/// Checks at run time that every element of `indices` (a tensor of
/// integers) lies in [lower, upper) (`index` values), or equals `except`
/// (an i64, optional: nll_loss's ignore_index); fails with `message`
/// otherwise. Builds nothing when `indices` is a constant that passes.
void checkIndicesInRange(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value indices, mlir::Value lower,
                         mlir::Value upper, llvm::StringRef message,
                         mlir::Value except = {});

/// The same check of one scalar `index` (an `index` value).
void checkIndexInRange(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value index, mlir::Value lower, mlir::Value upper,
                       llvm::StringRef message);

/// `index` (an `index` value) clamped to [0, size - 1], for the reads and
/// writes a check guards.
mlir::Value clampIndex(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value index, mlir::Value size);

/// torch's message for an index out of a dim (gather, scatter, x[i]):
/// "index is out of bounds for dimension 1 with size 3", without the size
/// when it is known only at run time (torch also names the index).
std::string outOfBoundsMessage(int64_t dim, std::optional<int64_t> size);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_INDEXCHECKS_H
