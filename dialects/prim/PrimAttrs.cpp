//===- PrimAttrs.cpp - Attributes of the prim dialect ---------------------===//
//
// Registration of the prim attributes, and the rules an inline quantized
// tensor must follow to be one torch could have printed.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tsir::prim;

#define GET_ATTRDEF_CLASSES
#include "tsir/Dialect/Prim/PrimAttrs.cpp.inc"

void PrimDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tsir/Dialect/Prim/PrimAttrs.cpp.inc"
      >();
}

LogicalResult
QuantizedTensorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            DenseElementsAttr values, Type dtype,
                            StringAttr qscheme, DenseElementsAttr scales,
                            DenseElementsAttr zeroPoints, IntegerAttr axis) {
  if (!values.getElementType().isF64())
    return emitError() << "quantized tensor values are the printed f64 "
                          "numbers, not "
                       << values.getElementType();
  if (!isa<QuantizedType>(dtype))
    return emitError() << "quantized tensor dtype " << dtype
                       << " is not a !prim.quantized type";
  // Without a qscheme torch printed a boxed scalar, which has no quantizer.
  if (!qscheme && (scales || zeroPoints || axis))
    return emitError() << "quantizer parameters without a qscheme";
  if (static_cast<bool>(scales) != static_cast<bool>(zeroPoints))
    return emitError() << "a quantizer has both scales and zero points, or "
                          "neither";
  if (!scales) {
    if (axis)
      return emitError() << "an axis without per-channel scales";
    return success();
  }
  int64_t rank = scales.getType().getRank();
  if (rank > 1 || zeroPoints.getType().getRank() != rank)
    return emitError() << "scales and zero points are both 0-d (per tensor) "
                          "or both 1-d (per channel)";
  if (rank == 1 &&
      (!axis || scales.getNumElements() != zeroPoints.getNumElements()))
    return emitError() << "per-channel scales and zero points need an axis "
                          "and one entry per channel each";
  if (rank == 0 && axis)
    return emitError() << "a per-tensor quantizer has no axis";
  return success();
}
