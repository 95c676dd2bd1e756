//===- Misc.cpp - convert-aten-to-linalg: Losses, inference dropout and metadata ops ===//
//
// Losses, inference dropout and metadata ops lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateMiscPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
