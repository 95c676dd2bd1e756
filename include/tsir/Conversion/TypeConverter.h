//===- TypeConverter.h - prim types to builtin types ------------*- C++ -*-===//
//
// The one type converter every tsir conversion shares: a `!prim.tensor` with
// a known dtype and rank becomes a builtin `tensor<...>` (unknown sizes are
// dynamic dims, integer dtypes become signless), and scalars stay what they
// are. Partial conversions meet through `unrealized_conversion_cast`s that
// tsir-finalize-lowering removes.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_CONVERSION_TYPECONVERTER_H
#define TSIR_CONVERSION_TYPECONVERTER_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tsir {

class TsirTypeConverter : public mlir::TypeConverter {
public:
  TsirTypeConverter();
};

/// The builtin tensor type for a `!prim.tensor`, or null if its dtype or
/// rank is unknown (or the dtype has no builtin form).
mlir::RankedTensorType convertTensorType(mlir::Type primTensorType);

/// The signless element type tsir computes with for a prim dtype
/// (`si64` -> `i64`, `ui8` -> `i8`, `f32` -> `f32`, `i1` -> `i1`).
mlir::Type signlessElementType(mlir::Type dtype);

/// Whether the dtype of a `!prim.tensor` is an unsigned integer (`ui8`):
/// the builtin element type forgets it, the arithmetic must not.
bool isUnsignedDtype(mlir::Type primTensorType);

} // namespace tsir

#endif // TSIR_CONVERSION_TYPECONVERTER_H
