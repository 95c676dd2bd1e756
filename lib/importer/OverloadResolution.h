//===- OverloadResolution.h - Pick the aten overload of a node --*- C++ -*-===//
//
// TorchScript resolves `aten::add(%a, %b, %c)` to the first overload, in
// registry order, whose arguments accept the operand types (Node::matches:
// subtyping plus type-variable unification). This does the same on MLIR
// types against the checked-in schema list.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_OVERLOADRESOLUTION_H
#define TSIR_LIB_IMPORTER_OVERLOADRESOLUTION_H

#include "tsir/Dialect/Aten/SchemaRegistry.h"

#include "mlir/IR/TypeRange.h"

namespace tsir {

/// Whether `schema` accepts operands of `operandTypes`.
bool schemaAccepts(const aten::Schema &schema, mlir::TypeRange operandTypes);

/// The first overload of `candidates` that accepts `operandTypes`, or null.
const aten::Schema *
resolveOverload(llvm::ArrayRef<const aten::Schema *> candidates,
                mlir::TypeRange operandTypes);

} // namespace tsir

#endif // TSIR_LIB_IMPORTER_OVERLOADRESOLUTION_H
