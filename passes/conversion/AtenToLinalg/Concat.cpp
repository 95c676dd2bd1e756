//===- Concat.cpp - convert-aten-to-linalg: cat, stack and the ops that split a tensor into a list ===//
//
// cat, stack and the ops that split a tensor into a list lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateConcatPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
