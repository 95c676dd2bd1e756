//===- Padding.cpp - convert-aten-to-linalg: Padding and triangular masks ===//
//
// Padding and triangular masks lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populatePaddingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
