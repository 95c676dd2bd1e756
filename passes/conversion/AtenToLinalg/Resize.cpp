//===- Resize.cpp - convert-aten-to-linalg: Upsampling ===//
//
// Upsampling lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateResizePatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
