//===- NativeOpKinds.h - Which ops the interpreter evaluates ----*- C++ -*-===//
//
// The ops tsir's interpreter runs between compiled segments without
// cutting the graph there (scalar arithmetic, metadata queries, views,
// cat/stack of run-time lists), by kind: the aten ops say which they are
// (the families of typed_ops.txt, AtenTraits.h). Compiling a segment for `i +
// 1` between two kernel calls would cost a JIT compilation; the interpreter
// runs such ops directly, as TorchScript's interpreter does. The partition
// into compiled segments (OpRoles, Segments) asks which ops these are; the
// interpreter runs each through the runtime kernel of its name
// (runtime/lib/kernels/ScalarKernels.cpp, ViewKernels.cpp,
// ConcatKernels.cpp), like any kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_NATIVEOPKINDS_H
#define TSIR_LIB_COMPILER_NATIVEOPKINDS_H

#include "mlir/IR/Operation.h"

namespace tsir {

/// What kind of op the interpreter runs itself, for the partition.
enum class NativeKind {
  None,
  /// TorchScript's operators on ints, floats and bools, the equality of
  /// int lists, strings and devices, `is` (the aten `scalar_operator`
  /// family).
  Scalar,
  /// A tensor's sizes, rank, element count (`tensor_query`), dtype and
  /// device.
  Query,
  /// A view that shares its input's storage (`storage_view`).
  View,
  /// cat/stack of a list built at run time.
  Concatenation,
};

/// The kind of `op`, or NativeKind::None for an op the interpreter does not
/// evaluate itself.
NativeKind nativeKind(mlir::Operation *op);

/// Whether the interpreter runs `op` itself.
bool isNativeOp(mlir::Operation *op);

/// Whether `op` is a native op on scalars alone (no tensor involved).
bool isNativeScalarOp(mlir::Operation *op);

/// Whether `op` is a native view (its result shares its input's storage).
bool isNativeView(mlir::Operation *op);

/// Whether `op` is cat or stack, which the interpreter runs on lists built
/// at run time (compiling them for each length would cost more, and much
/// more for long lists).
bool isNativeConcatenation(mlir::Operation *op);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_NATIVEOPKINDS_H
