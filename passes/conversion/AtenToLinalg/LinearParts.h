//===- LinearParts.h - The Linear family's extra files ----------*- C++ -*-===//
//
// Populate functions of the files the Linear family is split into beyond
// Linear.cpp, called from populateLinearPatterns. Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_LINEARPARTS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_LINEARPARTS_H

#include "mlir/Transforms/DialectConversion.h"

namespace tsir::conversion {

/// einsum with a constant equation (Einsum.cpp).
void populateEinsumPatterns(const mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_LINEARPARTS_H
