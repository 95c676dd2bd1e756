//===- SchemaTypes.h - MLIR types of schema types ---------------*- C++ -*-===//
//
// torch's parser types an untyped output of an op with a schema as the
// schema's return type (`%s = aten::size(%x)` is an `int[]`); this converts
// a schema type to the prim/builtin type the importer uses for it.
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

} // namespace tsir

#endif // TSIR_LIB_IMPORTER_SCHEMATYPES_H
