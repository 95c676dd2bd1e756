//===- ScalarTensor.cpp - convert-aten-to-linalg: Tensor constants and the scalar/tensor interplay ===//
//
// Tensor constants and the scalar/tensor interplay lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateScalarTensorPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
