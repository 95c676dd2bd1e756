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
// time. Which ops these are is NativeOpKinds.h's (the partition asks it
// too); this is their evaluation.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_EXECUTOR_NATIVEOPS_H
#define TSIR_LIB_EXECUTOR_NATIVEOPS_H

#include "compiler/NativeOpKinds.h"
#include "tsir-runtime/Value.h"

#include "mlir/IR/Operation.h"

#include <vector>

namespace tsir {

/// The results of native op `op` on `inputs`.
rt::StatusOr<std::vector<rt::Value>>
evaluateNative(mlir::Operation *op, const std::vector<rt::Value> &inputs);

} // namespace tsir

#endif // TSIR_LIB_EXECUTOR_NATIVEOPS_H
