//===- SchemaTypes.h - MLIR types of schema types ---------------*- C++ -*-===//
//
// torch's parser types an untyped output of an op with a schema as the
// schema's return type (`%s = aten::size(%x)` is an `int[]`); this converts
// a schema type to the prim/builtin type the importer uses for it, with the
// map the types of the graph text are built with too.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_SCHEMATYPES_H
#define TSIR_LIB_IMPORTER_SCHEMATYPES_H

#include "tsir/Dialect/Aten/SchemaRegistry.h"

#include "mlir/IR/Types.h"

namespace tsir {

/// The type of a value of schema type `type`, or null when the schema type
/// is not concrete (a type variable such as `t`) or has no tsir type.
mlir::Type convertSchemaType(mlir::MLIRContext *context,
                             const aten::SchemaType &type);

/// The one map from TorchScript's types to tsir's: the type of `kind` with
/// its contained types `elements` already built (the element of a list,
/// optional or future; a dict's key and value; a tuple's or union's
/// members). Null when the kind has no tsir type here (type variables,
/// RRef, Await, classes) or too few `elements` are given. The types a
/// graph's text declares are built through it too (MLIRGenTypes.cpp).
mlir::Type buildPrimType(mlir::MLIRContext *context,
                         aten::SchemaType::Kind kind,
                         llvm::ArrayRef<mlir::Type> elements);

/// How many contained types `kind` takes: -1 for any number.
int numContainedTypes(aten::SchemaType::Kind kind);

} // namespace tsir

#endif // TSIR_LIB_IMPORTER_SCHEMATYPES_H
