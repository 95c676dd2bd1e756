//===- ConstantValues.h - prim.Constant as a runtime value ------*- C++ -*-===//
//
// The interpreter's view of TorchScript constants: ints, floats, bools,
// strings, devices, None, lists and tuples of them, and tensors printed
// inline, as the runtime values kernels take.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_EXECUTOR_CONSTANTVALUES_H
#define TSIR_LIB_EXECUTOR_CONSTANTVALUES_H

#include "tsir-runtime/Value.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"

namespace tsir {

/// The runtime value of a constant `value` of TorchScript type `type`.
rt::StatusOr<rt::Value> constantValue(mlir::Attribute value, mlir::Type type);

} // namespace tsir

#endif // TSIR_LIB_EXECUTOR_CONSTANTVALUES_H
