//===- Linear.cpp - convert-aten-to-linalg: Matrix products ===//
//
// Matrix products lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateLinearPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
