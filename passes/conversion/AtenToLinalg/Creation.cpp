//===- Creation.cpp - convert-aten-to-linalg: Tensor creation ops ===//
//
// Tensor creation ops lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateCreationPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
