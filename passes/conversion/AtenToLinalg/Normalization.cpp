//===- Normalization.cpp - convert-aten-to-linalg: batch_norm, layer_norm and group_norm ===//
//
// batch_norm, layer_norm and group_norm lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateNormalizationPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
