//===- Elementwise.cpp - convert-aten-to-linalg: Elementwise ops, activations and dtype conversions ===//
//
// Elementwise ops, activations and dtype conversions lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateElementwisePatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
