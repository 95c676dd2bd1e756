//===- NativeOps.h - Ops the interpreter evaluates itself -------*- C++ -*-===//
//
// Scalar arithmetic, comparisons and logic on ints, floats and bools, the
// tensor metadata queries (size, dim, numel, dtype, device) and the views
// (select, slice, view, permute, transpose, ...), with TorchScript's
// semantics. Compiling a segment for `i + 1` between two kernel calls
// costs a JIT compilation; the interpreter evaluates such ops directly, as
// TorchScript's interpreter does. Metadata queries run here when
// interpreted code reads their result (a size list passed to a kernel),
// views when one must share storage with its base across segments
// (compiled segments return copies), and cat/stack of lists built at run
// time.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_NATIVEOPS_H
#define TSIR_LIB_COMPILER_NATIVEOPS_H

#include "tsir-runtime/Value.h"

#include "mlir/IR/Operation.h"

#include <vector>

namespace tsir {

/// Whether evaluateNative handles `op`.
bool isNativeOp(mlir::Operation *op);

/// Whether `op` is a native op on scalars alone (no tensor involved).
bool isNativeScalarOp(mlir::Operation *op);

/// Whether `op` is a native view (its result shares its input's storage).
bool isNativeView(mlir::Operation *op);

/// Whether `op` is cat or stack, which the interpreter runs on lists built
/// at run time (compiling them for each length would cost more, and much
/// more for long lists).
bool isNativeConcatenation(mlir::Operation *op);

/// The results of native op `op` on `inputs`.
rt::StatusOr<std::vector<rt::Value>>
evaluateNative(mlir::Operation *op, const std::vector<rt::Value> &inputs);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_NATIVEOPS_H
