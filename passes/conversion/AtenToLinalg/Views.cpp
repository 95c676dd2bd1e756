//===- Views.cpp - convert-aten-to-linalg: Views, reshapes and copies ===//
//
// Views, reshapes and copies lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateViewsPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
