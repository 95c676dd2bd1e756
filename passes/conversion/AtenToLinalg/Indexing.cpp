//===- Indexing.cpp - convert-aten-to-linalg: Gather- and scatter-style indexing ===//
//
// Gather- and scatter-style indexing lowered to linalg/tensor/arith/math on builtin tensors.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../Common/Utils.h"

using namespace mlir;

void tsir::conversion::populateIndexingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {}
