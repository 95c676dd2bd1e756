//===- Pooling.cpp - convert-aten-to-linalg: Pooling ===//
//
// Pooling lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populatePoolingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
