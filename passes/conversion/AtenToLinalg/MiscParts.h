//===- MiscParts.h - The Misc family's extra files --------------*- C++ -*-===//
//
// The populate function of Losses.cpp, called from populateMiscPatterns so
// that PopulatePatterns.h keeps one entry per family. Private to
// AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_MISCPARTS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_MISCPARTS_H

#include "mlir/Transforms/DialectConversion.h"

namespace tsir::conversion {

/// mse_loss, nll_loss, cross_entropy_loss and
/// binary_cross_entropy_with_logits (Losses.cpp).
void populateLossPatterns(const mlir::TypeConverter &typeConverter,
                          mlir::RewritePatternSet &patterns);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_MISCPARTS_H
