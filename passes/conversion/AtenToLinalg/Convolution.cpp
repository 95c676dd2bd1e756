//===- Convolution.cpp - convert-aten-to-linalg: Convolutions ===//
//
// Convolutions lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateConvolutionPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
