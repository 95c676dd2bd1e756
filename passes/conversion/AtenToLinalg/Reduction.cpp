//===- Reduction.cpp - convert-aten-to-linalg: Reductions and softmax ===//
//
// Reductions and softmax lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateReductionPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
