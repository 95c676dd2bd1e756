//===- PrimDialect.h - The prim dialect: types, attributes, ops -*- C++ -*-===//
//
// Everything a client needs to use the prim dialect: TorchScript's types,
// the structural ops, and the type relations TorchScript defines on them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_PRIM_PRIMDIALECT_H
#define TSIR_DIALECT_PRIM_PRIMDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tsir/Dialect/Prim/PrimDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tsir/Dialect/Prim/PrimTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tsir/Dialect/Prim/PrimAttrs.h.inc"

#define GET_OP_CLASSES
#include "tsir/Dialect/Prim/PrimOps.h.inc"

namespace tsir::prim {

/// The discardable attribute tsir-differentiate leaves on a forward graph
/// (a #prim.gradient), which the dialect verifies.
inline constexpr llvm::StringLiteral kGradientAttrName = "prim.gradient";

/// TorchScript's subtyping (`isSubtypeOf` in torch/csrc/jit): refined
/// tensors are Tensors, T and None are Optional[T], int/float/complex are
/// Scalar, tuples are covariant, everything is Any.
bool isSubtypeOf(mlir::Type sub, mlir::Type super);

/// `type` with every tensor refinement dropped, at any depth (TorchScript's
/// unshapedType): `Float(2, 3)[]` is `Tensor[]`.
mlir::Type unshapedType(mlir::Type type);

/// The builtin element type for a torch dtype name (`Float` -> f32,
/// `Long` -> si64, `Bool` -> i1, ...), or null if tsir has none for it.
mlir::Type dtypeFromTorchName(mlir::MLIRContext *context, llvm::StringRef name);

/// The torch dtype name (`Float`) of a builtin element type, or "" if none.
llvm::StringRef torchNameOfDtype(mlir::Type dtype);

} // namespace tsir::prim

#endif // TSIR_DIALECT_PRIM_PRIMDIALECT_H
