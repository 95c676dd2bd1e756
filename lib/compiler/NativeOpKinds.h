//===- NativeOpKinds.h - Which ops the interpreter evaluates ----*- C++ -*-===//
//
// The ops tsir's interpreter evaluates itself rather than compiling or
// calling a kernel (scalar arithmetic, metadata queries, views, cat/stack of
// run-time lists: lib/executor/NativeOps.h), by kind. The partition into
// compiled segments (OpRoles, Segments) asks which ops these are; the
// interpreter evaluates them by kind.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_NATIVEOPKINDS_H
#define TSIR_LIB_COMPILER_NATIVEOPKINDS_H

#include "mlir/IR/Operation.h"

namespace tsir {

/// What the interpreter computes for an op it evaluates itself.
enum class NativeKind {
  None,
  // A scalar::BinaryOp or scalar::CompareOp, named by the op.
  Arithmetic,
  Comparison,
  Neg,
  Not,
  ToInt,
  ToFloat,
  ToBool,
  Sizes,
  SizeOfDim,
  Dim,
  Numel,
  Dtype,
  Device,
  // Views, made on the runtime tensor so that they share its storage.
  Select,
  Slice,
  View,
  Permute,
  Transpose,
  Unsqueeze,
  Squeeze,
  SqueezeDim,
  Expand,
  TransposeMatrix,
  Narrow,
  Alias,
  // Comparisons of lists of ints (sizes) and of strings.
  ListEq,
  ListNe,
  Contains,
  StrEq,
  StrNe,
  // Comparisons of devices.
  DeviceEq,
  DeviceNe,
  // Identity (`x is None`, `x is not None`).
  Is,
  IsNot,
  // cat/stack of a list built at run time.
  Cat,
  Stack,
};

/// The kind of `op`, or NativeKind::None for an op the interpreter does not
/// evaluate itself.
NativeKind nativeKind(mlir::Operation *op);

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

} // namespace tsir

#endif // TSIR_LIB_COMPILER_NATIVEOPKINDS_H
